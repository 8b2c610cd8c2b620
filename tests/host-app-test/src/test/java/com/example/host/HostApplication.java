package com.example.host;

import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson3.Jackson3JsonMapper;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * An existing Boot application that already runs JobRunr (its own server and jobs), Flyway (its own
 * migrations in {@code public}) and Actuator (health only). The only CaptchaJobs thing it has is
 * the starter on its class path.
 */
@SpringBootApplication
public class HostApplication {

  /** The host's own JobRunr configuration, as JobRunr's Boot starter on Jackson 3 needs it. */
  @Bean(name = "jobRunrJsonMapper")
  JsonMapper jobRunrJsonMapper() {
    return new Jackson3JsonMapper();
  }
}
