package com.captchajobs.app;

import com.captchajobs.app.sandbox.DemoConfiguration;
import com.captchajobs.app.web.ApiConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The app node: the REST API over {@link Solves}. With no configuration it is the sandbox
 * (embedded PostgreSQL, the CaptchaAI simulator, an in-process worker and the JobRunr dashboard;
 * see {@code SandboxEnvironment}). No component scan: what the node serves is listed here.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ApiConfiguration.class, DemoConfiguration.class})
public class AppApplication {

  public static void main(String[] args) {
    SpringApplication.run(AppApplication.class, args);
  }
}
