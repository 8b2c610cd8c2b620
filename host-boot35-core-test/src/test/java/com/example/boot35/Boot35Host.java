package com.example.boot35;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jobrunr.jobs.Job;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Starting the host the way each test class needs it, and what its tests look up. */
final class Boot35Host {

  /** The worker node's runnable jar, built by the reactor before this module. */
  static final Path WORKER_JAR = Path.of("..", "worker", "target", "captchajobs-worker.jar");

  /** A JDK 25 where CI machines have one; the worker-first variant runs the worker node on it. */
  static final Path JAVA_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

  /** The turnstile sitekey of the simulator's examples. */
  static final String SITEKEY = "0x4AAAAAAADnPIDROrmt1Wwj";

  private Boot35Host() {}

  /**
   * The host's own settings, none of them about CaptchaJobs: its JobRunr server on (it keeps its
   * default table names), its web server on a free port, Actuator's health.
   */
  static ConfigurableApplicationContext start(String jdbcUrl, Map<String, Object> extra) {
    Map<String, Object> props = new HashMap<>();
    props.put("spring.datasource.url", jdbcUrl);
    props.put("server.port", "0");
    props.put("server.address", "127.0.0.1");
    props.put("jobrunr.background-job-server.enabled", "true");
    props.put("jobrunr.background-job-server.poll-interval-in-seconds", "5");
    props.put("jobrunr.miscellaneous.allow-anonymous-data-usage", "false");
    props.put("management.endpoints.web.exposure.include", "health");
    props.putAll(extra);
    return new SpringApplicationBuilder(Boot35HostApplication.class).properties(props).run();
  }

  /** The JobRunr library on this class path: the host's, whatever CaptchaJobs was built with. */
  static String jobRunrVersion() {
    return Job.class.getPackage().getImplementationVersion();
  }

  /** {@link #JAVA_25} if this machine has it, else the Java running this test. */
  static Path workerJava(Path currentJava) {
    return Files.isExecutable(JAVA_25) ? JAVA_25 : currentJava;
  }
}
