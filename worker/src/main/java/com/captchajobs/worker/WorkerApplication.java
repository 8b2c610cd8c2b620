package com.captchajobs.worker;

import com.captchajobs.node.security.NodeDefaults;
import com.captchajobs.node.security.NodeSecurityConfiguration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * The worker node: CaptchaJobs' own JobRunr server running submit and poll jobs against {@code
 * spring.datasource.url}, with {@code captchaai.api-key} (or {@code CAPTCHAAI_API_KEY}), {@code
 * captchaai.base-url} and {@code captchaai.threads}. It refuses to start without a database or a
 * key. Its defaults below sit under anything the operator sets.
 */
@SpringBootApplication
@Import(NodeSecurityConfiguration.class)
public class WorkerApplication {

  public static void main(String[] args) {
    application().run(args);
  }

  /** The application as {@link #main} runs it, for tests that start it in-process. */
  public static SpringApplication application() {
    SpringApplication app = new SpringApplication(WorkerApplication.class);
    app.setDefaultProperties(defaults());
    return app;
  }

  /**
   * This node's defaults. The worker is on; names of earlier releases ({@code
   * jobrunr.background-job-server.*}) still work on this node.
   */
  public static Map<String, Object> defaults() {
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("spring.application.name", "captchajobs-worker");
    defaults.put("captchajobs.worker.enabled", "${jobrunr.background-job-server.enabled:true}");
    defaults.put("captchajobs.worker.name", "${jobrunr.background-job-server.name:}");
    defaults.put(
        "captchajobs.worker.worker-count", "${jobrunr.background-job-server.worker-count:64}");
    defaults.putAll(NodeDefaults.ownPool());
    defaults.putAll(NodeDefaults.boundedWeb());
    defaults.putAll(NodeDefaults.managementWithProbeGroups(8091));
    return defaults;
  }
}
