package com.example.boot35;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Solves;
import com.captchajobs.core.settings.SolveSettings;
import com.example.hostcontract.RecordOrderHandler;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * An existing Spring Boot 3.5 application with JobRunr 8.4 (its own server and jobs), Flyway (its
 * own migrations in {@code public}) and Actuator. It added only {@code captchajobs-core} and builds
 * CaptchaJobs itself with the plain-Java builder, as a bean of its own; no setting of its JobRunr,
 * Flyway or Jackson changed.
 */
@SpringBootApplication
@Import(RecordOrderHandler.class)
public class Boot35HostApplication {

  /**
   * Enqueue-only unless the host sets {@code captchajobs.worker.enabled=true}: then this process
   * also runs a worker, on the host's own JobRunr library but on our own server and tables.
   */
  @Bean
  CaptchaJobs captchaJobs(DataSource dataSource, Environment env) {
    CaptchaJobs.Builder builder = CaptchaJobs.builder().dataSource(dataSource);
    if (env.getProperty("captchajobs.worker.enabled", Boolean.class, false)) {
      builder
          .apiKey(env.getRequiredProperty("captchaai.api-key"))
          .baseUrl(env.getRequiredProperty("captchaai.base-url"))
          .settings(
              SolveSettings.builder()
                  .threads(env.getRequiredProperty("captchaai.threads", Integer.class))
                  .build())
          .nodeName(env.getRequiredProperty("captchajobs.worker.name"));
    }
    return builder.build();
  }

  @Bean
  Solves solves(CaptchaJobs captchaJobs) {
    return captchaJobs.solves();
  }
}
