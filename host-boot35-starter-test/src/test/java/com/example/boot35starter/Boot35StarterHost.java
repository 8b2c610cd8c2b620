package com.example.boot35starter;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Starting the host the way each test class needs it. */
final class Boot35StarterHost {

  /** The worker node's runnable jar, built by the reactor before this module. */
  static final Path WORKER_JAR = Path.of("..", "worker", "target", "captchajobs-worker.jar");

  /** The turnstile sitekey of the simulator's examples. */
  static final String SITEKEY = "0x4AAAAAAADnPIDROrmt1Wwj";

  private Boot35StarterHost() {}

  /**
   * The host's own settings, none of them about CaptchaJobs: its JobRunr server on (it keeps its
   * default table names), its web server on a free port, Actuator's health only.
   */
  static ConfigurableApplicationContext start(String jdbcUrl) {
    Map<String, Object> props = new HashMap<>();
    props.put("spring.datasource.url", jdbcUrl);
    props.put("server.port", "0");
    props.put("server.address", "127.0.0.1");
    props.put("jobrunr.background-job-server.enabled", "true");
    props.put("jobrunr.background-job-server.poll-interval-in-seconds", "5");
    props.put("jobrunr.miscellaneous.allow-anonymous-data-usage", "false");
    props.put("management.endpoints.web.exposure.include", "health");
    return new SpringApplicationBuilder(Boot35StarterHostApplication.class).properties(props).run();
  }
}
