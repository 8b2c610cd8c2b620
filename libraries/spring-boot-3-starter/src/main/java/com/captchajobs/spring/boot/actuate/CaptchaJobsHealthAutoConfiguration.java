package com.captchajobs.spring.boot.actuate;

import static com.captchajobs.spring.boot.actuate.CaptchaJobsActuatorAutoConfiguration.workerOf;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.spring.boot.CaptchaJobsAutoConfiguration;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The worker's health indicators ({@code breaker}, {@code provider}), only where Spring Boot's
 * health support is present and only on workers; what is exposed stays the application's choice.
 */
@AutoConfiguration(after = CaptchaJobsAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(CaptchaJobs.class)
@ConditionalOnBooleanProperty("captchajobs.worker.enabled")
public class CaptchaJobsHealthAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  BreakerHealthIndicator breakerHealthIndicator(CaptchaJobs captchaJobs) {
    return new BreakerHealthIndicator(captchaJobs.operations(), workerOf(captchaJobs));
  }

  /** Health contributor {@code provider}: DOWN while CaptchaAI does not answer. */
  @Bean
  @ConditionalOnMissingBean
  ProviderHealthIndicator providerHealthIndicator(CaptchaJobs captchaJobs) {
    return new ProviderHealthIndicator(workerOf(captchaJobs));
  }
}
