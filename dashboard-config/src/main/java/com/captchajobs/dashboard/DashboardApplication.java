package com.captchajobs.dashboard;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A dashboard-only node: the JobRunr dashboard on {@code jobrunr.dashboard.port} (8000) and
 * Actuator on {@code server.port}, against {@code spring.datasource.url}, with no background job
 * server. It refuses to start without {@code jobrunr.dashboard.username} and {@code
 * jobrunr.dashboard.password} unless {@code captchajobs.sandbox=true}.
 */
@SpringBootApplication
public class DashboardApplication {

  /** Defaults of this node, below anything the operator sets. */
  static final Map<String, Object> DEFAULTS = Map.of(
      "jobrunr.dashboard.enabled", "true",
      "jobrunr.background-job-server.enabled", "false",
      "jobrunr.miscellaneous.allow-anonymous-data-usage", "false",
      "spring.application.name", "captchajobs-dashboard");

  public static void main(String[] args) {
    application().run(args);
  }

  /** The application as {@link #main} runs it, for tests that start it in-process. */
  public static SpringApplication application() {
    SpringApplication app = new SpringApplication(DashboardApplication.class);
    app.setDefaultProperties(DEFAULTS);
    return app;
  }
}
