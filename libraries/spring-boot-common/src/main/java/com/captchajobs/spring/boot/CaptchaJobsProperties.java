package com.captchajobs.spring.boot;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.WorkerSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of CaptchaJobs itself under {@code captchajobs.*}: where its tables live, and the one
 * binding of three groups of settings, {@link RetentionSettings} ({@code captchajobs.retention*}),
 * {@link WorkerSettings} ({@code captchajobs.worker.*}) and {@link DashboardSettings} ({@code
 * captchajobs.dashboard.*}). Defaults are the groups' constants; each field is named like its
 * group's builder method, so that a refusal names the property ({@link PropertyNames}).
 */
@ConfigurationProperties(CaptchaJobsProperties.PREFIX)
public class CaptchaJobsProperties {

  /** The prefix of these properties. */
  public static final String PREFIX = "captchajobs";

  /** The prefix of {@link Worker}. */
  public static final String WORKER_PREFIX = PREFIX + ".worker";

  /** The prefix of {@link Dashboard}. */
  public static final String DASHBOARD_PREFIX = PREFIX + ".dashboard";

  /** Whether CaptchaJobs is wired at all when a DataSource exists. */
  private boolean enabled = true;

  /**
   * PostgreSQL schema of every CaptchaJobs table, JobRunr's own included; created when missing.
   * Keeps a host application's schema and Flyway history untouched.
   */
  private String schema = CaptchaJobs.Builder.DEFAULT_SCHEMA;

  /**
   * Age after which worker nodes delete final solves, poll timings and slot hand-off rows (one node
   * at a time, hourly).
   */
  private Duration retention = RetentionSettings.DEFAULT_RETENTION;

  /** How often a worker node runs the retention pass. */
  private Duration retentionInterval = RetentionSettings.DEFAULT_RETENTION_INTERVAL;

  /**
   * How long after its claim a solve's answer may be reported as BAD or GOOD (1s to 1h); checked by
   * the node that accepts the report.
   */
  private Duration reportWindow = CaptchaJobs.Builder.DEFAULT_REPORT_WINDOW;

  private final Worker worker = new Worker();

  private final Dashboard dashboard = new Dashboard();

  /**
   * The retention pass, mapped here and nowhere else.
   *
   * @throws IllegalStateException naming the key of a value that cannot work
   */
  public RetentionSettings toRetention() {
    return PropertyNames.build(
        () ->
            RetentionSettings.builder()
                .retention(retention)
                .retentionInterval(retentionInterval)
                .build());
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getRetention() {
    return retention;
  }

  public void setRetention(Duration retention) {
    this.retention = retention;
  }

  public Duration getRetentionInterval() {
    return retentionInterval;
  }

  public void setRetentionInterval(Duration retentionInterval) {
    this.retentionInterval = retentionInterval;
  }

  public Duration getReportWindow() {
    return reportWindow;
  }

  public void setReportWindow(Duration reportWindow) {
    this.reportWindow = reportWindow;
  }

  public String getSchema() {
    return schema;
  }

  public void setSchema(String schema) {
    this.schema = schema;
  }

  public Worker getWorker() {
    return worker;
  }

  public Dashboard getDashboard() {
    return dashboard;
  }

  /** This node's worker: CaptchaJobs' own JobRunr server running submit and poll jobs. */
  public static class Worker {

    /** Whether this node runs a worker; it then needs captchaai.api-key. */
    private boolean enabled = false;

    /** Name of this node in the gate and the dashboard; host name and process id by default. */
    private String name;

    /** Threads of our JobRunr server on this node. */
    private int workerCount = WorkerSettings.DEFAULT_WORKER_COUNT;

    /** How often our JobRunr server looks for due jobs; at least 5s. */
    private Duration pollInterval = WorkerSettings.DEFAULT_POLL_INTERVAL;

    /** How long a stopping worker waits for running jobs before interrupting them. */
    private Duration shutdownWait = WorkerSettings.DEFAULT_SHUTDOWN_WAIT;

    /**
     * This node's JobRunr server, mapped here and nowhere else; without a name, the group's
     * default.
     *
     * @throws IllegalStateException naming the key of a value that cannot work
     */
    public WorkerSettings toSettings() {
      return PropertyNames.build(
          () -> {
            WorkerSettings.Builder b =
                WorkerSettings.builder()
                    .pollInterval(pollInterval)
                    .workerCount(workerCount)
                    .shutdownWait(shutdownWait);
            return name == null || name.isBlank() ? b.build() : b.name(name).build();
          });
    }

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public int getWorkerCount() {
      return workerCount;
    }

    public void setWorkerCount(int workerCount) {
      this.workerCount = workerCount;
    }

    public Duration getPollInterval() {
      return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
    }

    public Duration getShutdownWait() {
      return shutdownWait;
    }

    public void setShutdownWait(Duration shutdownWait) {
      this.shutdownWait = shutdownWait;
    }
  }

  /** The JobRunr dashboard over CaptchaJobs' jobs only, on its own port, behind basic auth. */
  public static class Dashboard {

    /** Whether this node serves the dashboard. */
    private boolean enabled = false;

    /** Port of the dashboard. */
    private int port = DashboardSettings.DEFAULT_PORT;

    /**
     * Network address the dashboard binds, e.g. 0.0.0.0 behind a TLS reverse proxy. Unset: {@code
     * server.address} when the node has one, else loopback.
     */
    private String address;

    /** Basic-auth user name; required when enabled. */
    private String username;

    /**
     * Basic-auth password, at least 12 characters; required when enabled. Pass it through the
     * environment.
     */
    private String password;

    /**
     * The dashboard, mapped here and nowhere else.
     *
     * @param serverAddress {@code server.address}, the address when none is set here, or null
     * @throws IllegalStateException naming the key of a value that cannot work
     */
    public DashboardSettings toSettings(String serverAddress) {
      return PropertyNames.build(
          () ->
              DashboardSettings.builder()
                  .port(port)
                  .address(address != null && !address.isBlank() ? address : serverAddress)
                  .username(username)
                  .password(password)
                  .build());
    }

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public int getPort() {
      return port;
    }

    public void setPort(int port) {
      this.port = port;
    }

    public String getAddress() {
      return address;
    }

    public void setAddress(String address) {
      this.address = address;
    }

    public String getUsername() {
      return username;
    }

    public void setUsername(String username) {
      this.username = username;
    }

    public String getPassword() {
      return password;
    }

    public void setPassword(String password) {
      this.password = password;
    }

    @Override
    public String toString() {
      return "Dashboard[enabled="
          + enabled
          + ", port="
          + port
          + ", address="
          + address
          + ", username="
          + username
          + ", password="
          + (password == null ? "unset" : "***")
          + "]";
    }
  }
}
