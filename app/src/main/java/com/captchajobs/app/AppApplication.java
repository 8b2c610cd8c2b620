package com.captchajobs.app;

import com.captchajobs.app.sandbox.DemoConfiguration;
import com.captchajobs.app.sandbox.SandboxEnvironment;
import com.captchajobs.app.web.ApiConfiguration;
import com.captchajobs.node.security.NodeDefaults;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Import;

/**
 * The app node: the REST API over {@code Solves}. Given a database and no key it only enqueues;
 * with {@code captchajobs.worker.enabled=true} and a key it also runs a worker. With nothing
 * configured it is the sandbox (see {@link SandboxEnvironment}). No component scan: what the node
 * serves is listed here.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ApiConfiguration.class, DemoConfiguration.class})
public class AppApplication {

  public static void main(String[] args) {
    builder().run(args);
  }

  /** The application as {@link #main} runs it: this node's defaults and its sandbox. */
  public static SpringApplicationBuilder builder() {
    return new SpringApplicationBuilder(AppApplication.class)
        .properties(defaults())
        .listeners(new SandboxEnvironment(defaults()));
  }

  /**
   * This node's defaults; {@code jobrunr.background-job-server.enabled} of earlier releases still
   * works.
   */
  public static Map<String, Object> defaults() {
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("spring.application.name", "captchajobs-app");
    defaults.put("captchajobs.worker.enabled", "${jobrunr.background-job-server.enabled:false}");
    defaults.putAll(NodeDefaults.ownPool());
    defaults.putAll(NodeDefaults.boundedWeb());
    defaults.putAll(NodeDefaults.managementWithProbeGroups(8082));
    return defaults;
  }

  /** For callers that want the plain {@link SpringApplication}. */
  public static SpringApplication application() {
    return builder().build();
  }
}
