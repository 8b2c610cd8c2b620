package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.LocalWorker;
import com.captchajobs.spring.boot.CaptchaJobsAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The worker's {@code breaker} endpoint, only where {@code spring-boot-actuator} is present and
 * only on workers; what is exposed stays the application's choice. The health indicators come from
 * each starter's {@code CaptchaJobsHealthAutoConfiguration}, since Boot 3 and 4 keep health types
 * in different packages.
 */
@AutoConfiguration(after = CaptchaJobsAutoConfiguration.class)
@ConditionalOnBean(CaptchaJobs.class)
@ConditionalOnBooleanProperty("captchajobs.worker.enabled")
public class CaptchaJobsActuatorAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Endpoint.class)
  static class Endpoints {

    /** No inferred destroy method: shutting a node down must never close the fleet's breaker. */
    @Bean(destroyMethod = "")
    @ConditionalOnMissingBean
    BreakerEndpoint breakerEndpoint(CaptchaJobs captchaJobs) {
      return new BreakerEndpoint(workerOf(captchaJobs));
    }
  }

  /** The worker of a node that is told to be one; an application-defined instance may lack it. */
  public static LocalWorker workerOf(CaptchaJobs captchaJobs) {
    return captchaJobs
        .operations()
        .worker()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "captchajobs.worker.enabled=true, but the application's own CaptchaJobs bean runs no worker:"
                        + " build it with an API key, or set captchajobs.worker.enabled=false"));
  }
}
