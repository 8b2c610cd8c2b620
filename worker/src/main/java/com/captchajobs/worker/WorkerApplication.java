package com.captchajobs.worker;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A worker node: a JobRunr background job server running submit and poll jobs against {@code
 * spring.datasource.url}, with {@code captchaai.api-key}, {@code captchaai.base-url} and {@code
 * captchaai.threads}.
 */
@SpringBootApplication
public class WorkerApplication {

  public static void main(String[] args) {
    SpringApplication app = new SpringApplication(WorkerApplication.class);
    app.setDefaultProperties(Map.of("jobrunr.background-job-server.enabled", "true"));
    app.run(args);
  }
}
