package com.captchajobs.spring.boot;

import com.captchajobs.spring.boot.actuate.BreakerHealthIndicator;
import com.captchajobs.spring.boot.actuate.CaptchaJobsHealthAutoConfiguration;
import java.util.Map;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;

/**
 * What the starter tests shared by both starters (spring-boot-common/src/starter-tests) need that
 * differs between Spring Boot 3 and 4; this is Boot 3's.
 */
final class ThisBoot {

  static final Class<?> DATA_SOURCE_AUTO_CONFIGURATION = DataSourceAutoConfiguration.class;
  static final Class<?> HEALTH_INDICATOR = HealthIndicator.class;
  static final Class<?> HEALTH_AUTO_CONFIGURATION = CaptchaJobsHealthAutoConfiguration.class;

  private ThisBoot() {}

  static String status(BreakerHealthIndicator indicator) {
    return indicator.health().getStatus().getCode();
  }

  static Map<String, Object> details(BreakerHealthIndicator indicator) {
    return indicator.health().getDetails();
  }
}
