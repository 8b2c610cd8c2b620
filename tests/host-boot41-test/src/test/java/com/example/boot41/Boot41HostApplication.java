package com.example.boot41;

import com.example.hostcontract.RecordOrderHandler;
import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson3.Jackson3JsonMapper;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * An existing Spring Boot 4.1 application with JobRunr 8.7 (its own server and jobs), Flyway (its
 * own migrations in {@code public}) and Actuator (health only). The only CaptchaJobs thing it has
 * is the starter on its class path.
 */
@SpringBootApplication
@Import(RecordOrderHandler.class)
public class Boot41HostApplication {

  /** The host's own JobRunr configuration, as JobRunr's Boot starter on Jackson 3 needs it. */
  @Bean(name = "jobRunrJsonMapper")
  JsonMapper jobRunrJsonMapper() {
    return new Jackson3JsonMapper();
  }
}
