package com.captchajobs.dashboard;

import com.captchajobs.node.security.NodeDefaults;
import com.captchajobs.node.security.NodeSecurityConfiguration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * The dashboard node: the JobRunr dashboard over CaptchaJobs' own jobs on {@code
 * captchajobs.dashboard.port} (8000) and Actuator on {@code server.port}, against {@code
 * spring.datasource.url}, with no worker. It refuses to start without {@code
 * captchajobs.dashboard.username} and {@code captchajobs.dashboard.password}.
 */
@SpringBootApplication
@Import(NodeSecurityConfiguration.class)
public class DashboardApplication {

  /**
   * This node's defaults, below anything the operator sets. The {@code jobrunr.dashboard.*} names
   * of earlier releases still work on this node.
   */
  static final Map<String, Object> DEFAULTS = defaults();

  public static void main(String[] args) {
    application().run(args);
  }

  /** The application as {@link #main} runs it, for tests that start it in-process. */
  public static SpringApplication application() {
    SpringApplication app = new SpringApplication(DashboardApplication.class);
    app.setDefaultProperties(DEFAULTS);
    return app;
  }

  private static Map<String, Object> defaults() {
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("spring.application.name", "captchajobs-dashboard");
    defaults.put("captchajobs.dashboard.enabled", "true");
    defaults.put("captchajobs.worker.enabled", "false");
    defaults.put("captchajobs.dashboard.port", "${jobrunr.dashboard.port:8000}");
    defaults.put("captchajobs.dashboard.username", "${jobrunr.dashboard.username:}");
    defaults.put("captchajobs.dashboard.password", "${jobrunr.dashboard.password:}");
    defaults.putAll(NodeDefaults.ownPool());
    defaults.putAll(NodeDefaults.boundedWeb());
    defaults.putAll(NodeDefaults.management(8092));
    return defaults;
  }
}
