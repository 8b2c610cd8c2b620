package com.example.hostcontract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jobrunr.jobs.Job;
import org.jobrunr.server.BackgroundJobServer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What every host test module starts and checks the same way, on Boot 3.5 and Boot 4 alike: the
 * host's own settings, the worker node's jar, and the guest rules that read the host's database.
 */
public final class Hosts {

  /**
   * The worker node's runnable jar, built by the reactor before the host modules; the path is from
   * a host module's directory, {@code tests/<module>}.
   */
  public static final Path WORKER_JAR =
      Path.of("..", "..", "worker", "target", "captchajobs-worker.jar");

  /** The turnstile sitekey of the simulator's examples. */
  public static final String SITEKEY = "0x4AAAAAAADnPIDROrmt1Wwj";

  private Hosts() {}

  /**
   * The host's own settings, none of them about CaptchaJobs: its JobRunr server on (it keeps its
   * default table names), its web server on a free port, Actuator's health only.
   */
  public static Map<String, Object> properties(String jdbcUrl) {
    Map<String, Object> props = new HashMap<>();
    props.put("spring.datasource.url", jdbcUrl);
    props.put("server.port", "0");
    props.put("server.address", "127.0.0.1");
    props.put("jobrunr.background-job-server.enabled", "true");
    props.put("jobrunr.background-job-server.poll-interval-in-seconds", "5");
    props.put("jobrunr.miscellaneous.allow-anonymous-data-usage", "false");
    props.put("management.endpoints.web.exposure.include", "health");
    return props;
  }

  /** The host application with {@link #properties} and {@code extra} on top. */
  public static ConfigurableApplicationContext start(
      Class<?> application, String jdbcUrl, Map<String, Object> extra) {
    Map<String, Object> props = properties(jdbcUrl);
    props.putAll(extra);
    return new SpringApplicationBuilder(application).properties(props).run();
  }

  /** Closes each of {@code started} that was started, in the order given. */
  public static void closeInOrder(AutoCloseable... started) throws Exception {
    for (AutoCloseable each : started) {
      if (each != null) {
        each.close();
      }
    }
  }

  /** The JobRunr library on this class path: the host's, whatever CaptchaJobs was built with. */
  public static String jobRunrVersion() {
    return Job.class.getPackage().getImplementationVersion();
  }

  /** The HTTP status of a GET on the host's own web server. */
  public static int statusOf(ConfigurableApplicationContext host, String path) throws Exception {
    int port = Integer.parseInt(host.getEnvironment().getProperty("local.server.port"));
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  /**
   * The entry of captchajobs-console, the artifact that serves the dashboard and the operator
   * console: a guest adds it only to enable the dashboard.
   */
  public static final String CONSOLE_ENTRY = "com.captchajobs.console.ConsoleDashboard";

  /**
   * A guest that leaves the dashboard off carries none of it: no class of captchajobs-console, no
   * dashboard for the core to find, nothing of the operator console's pages.
   */
  public static void assertNoConsoleClassIsOnTheClassPath(ConfigurableApplicationContext host) {
    ClassLoader loader = host.getClassLoader();
    assertThatThrownBy(() -> Class.forName(CONSOLE_ENTRY, false, loader))
        .isInstanceOf(ClassNotFoundException.class);
    for (String other :
        List.of(
            "com.captchajobs.console.server.DashboardServer",
            // where they were while the core carried them
            "com.captchajobs.core.internal.console.Console",
            "com.captchajobs.core.internal.jobrunr.DashboardServer")) {
      assertThatThrownBy(() -> Class.forName(other, false, loader))
          .as(other)
          .isInstanceOf(ClassNotFoundException.class);
    }
    assertThat(
            loader.getResource(
                "META-INF/services/com.captchajobs.core.internal.dashboard.DashboardServing"))
        .isNull();
    assertThat(loader.getResource("captchajobs-console/console.js")).isNull();
  }

  /** Only the host's own migration is in its Flyway history in {@code public}. */
  public static void assertTheHostsFlywayHistoryHoldsOnlyItsOwnMigration(JdbcTemplate jdbc) {
    assertThat(
            jdbc.queryForList(
                "SELECT version FROM public.flyway_schema_history WHERE version IS NOT NULL",
                String.class))
        .containsExactly("1");
  }

  /** The host's JobRunr made its own tables in {@code public}, under their default names. */
  public static void assertTheHostsJobRunrTablesAreInPublic(JdbcTemplate jdbc) {
    assertThat(
            jdbc.queryForList(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                    + " AND table_name IN ('jobrunr_jobs', 'jobrunr_migrations')"
                    + " ORDER BY table_name",
                String.class))
        .containsExactly("jobrunr_jobs", "jobrunr_migrations");
  }

  /** Our jobs ran on the worker node's JobRunr server alone. */
  public static void assertOurJobsRanOnlyOn(JdbcTemplate jdbc, String worker) {
    assertThat(
            jdbc.queryForList(
                "SELECT DISTINCT name FROM captchajobs.cj_jobrunr_backgroundjobservers",
                String.class))
        .containsExactly(worker);
  }

  /** The host has one JobRunr server, its own, not the worker node's. */
  public static void assertTheHostsOneJobRunrServerIsItsOwn(
      ConfigurableApplicationContext host, String worker) {
    assertThat(host.getBeansOfType(BackgroundJobServer.class)).hasSize(1);
    assertThat(host.getBean(BackgroundJobServer.class).getConfiguration().getName())
        .isNotEqualTo(worker);
  }
}
