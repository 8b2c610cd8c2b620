package com.captchajobs.spring.boot;

import com.captchajobs.core.CaptchaJobs;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of CaptchaJobs itself under {@code captchajobs.*}: where its tables live, whether this
 * node runs a worker, and its dashboard. Defaults are {@link CaptchaJobs.Builder}'s constants.
 */
@ConfigurationProperties("captchajobs")
public class CaptchaJobsProperties {

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
  private Duration retention = CaptchaJobs.Builder.DEFAULT_RETENTION;

  /** How often a worker node runs the retention pass. */
  private Duration retentionInterval = CaptchaJobs.Builder.DEFAULT_RETENTION_INTERVAL;

  /**
   * How long after its claim a solve's answer may be reported as BAD or GOOD (1s to 1h); checked by
   * the node that accepts the report.
   */
  private Duration reportWindow = CaptchaJobs.Builder.DEFAULT_REPORT_WINDOW;

  private final Worker worker = new Worker();

  private final Dashboard dashboard = new Dashboard();

  /**
   * Sets a worker's settings of this class on the builder, every one of them mapped here and
   * nowhere else (the builder refuses a value that cannot work, and the starter names the property
   * then).
   */
  public CaptchaJobs.Builder applyWorkerTo(CaptchaJobs.Builder builder) {
    builder
        .jobPollInterval(worker.getPollInterval())
        .workerCount(worker.getWorkerCount())
        .shutdownWait(worker.getShutdownWait())
        .retention(retention)
        .retentionInterval(retentionInterval);
    if (worker.getName() != null && !worker.getName().isBlank()) {
      builder.nodeName(worker.getName());
    }
    return builder;
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
    private int workerCount = CaptchaJobs.Builder.DEFAULT_WORKER_COUNT;

    /** How often our JobRunr server looks for due jobs; at least 5s. */
    private Duration pollInterval = CaptchaJobs.Builder.DEFAULT_JOB_POLL_INTERVAL;

    /** How long a stopping worker waits for running jobs before interrupting them. */
    private Duration shutdownWait = CaptchaJobs.Builder.DEFAULT_SHUTDOWN_WAIT;

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
    private int port = CaptchaJobs.Builder.DEFAULT_DASHBOARD_PORT;

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
