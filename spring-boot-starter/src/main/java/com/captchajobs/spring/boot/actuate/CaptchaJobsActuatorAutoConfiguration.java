package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.spring.boot.CaptchaJobsAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The worker's breaker in Actuator, each part only where its library is present: a health indicator
 * ({@code spring-boot-health}) and the {@code breaker} endpoint ({@code spring-boot-actuator}).
 * Only on workers; what is exposed stays the application's choice.
 */
@AutoConfiguration(after = CaptchaJobsAutoConfiguration.class)
@ConditionalOnBean(CaptchaJobs.class)
@ConditionalOnBooleanProperty("captchajobs.worker.enabled")
public class CaptchaJobsActuatorAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  static class Health {

    @Bean
    @ConditionalOnMissingBean
    BreakerHealthIndicator breakerHealthIndicator(CaptchaJobs captchaJobs) {
      CaptchaJobs.Worker worker = workerOf(captchaJobs);
      return new BreakerHealthIndicator(worker.breaker(), worker.gate(), worker.planCheck());
    }

    /** Health contributor {@code provider}: DOWN while CaptchaAI does not answer. */
    @Bean
    @ConditionalOnMissingBean
    ProviderHealthIndicator providerHealthIndicator(CaptchaJobs captchaJobs) {
      return new ProviderHealthIndicator(workerOf(captchaJobs).planCheck());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Endpoint.class)
  static class Endpoints {

    /** No inferred destroy method: shutting a node down must never close the fleet's breaker. */
    @Bean(destroyMethod = "")
    @ConditionalOnMissingBean
    BreakerEndpoint breakerEndpoint(CaptchaJobs captchaJobs) {
      return new BreakerEndpoint(workerOf(captchaJobs).breaker());
    }
  }

  /** The worker of a node that is told to be one; an application-defined instance may lack it. */
  static CaptchaJobs.Worker workerOf(CaptchaJobs captchaJobs) {
    return captchaJobs
        .worker()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "captchajobs.worker.enabled=true, but the application's own CaptchaJobs bean runs no worker:"
                        + " build it with an API key, or set captchajobs.worker.enabled=false"));
  }
}
