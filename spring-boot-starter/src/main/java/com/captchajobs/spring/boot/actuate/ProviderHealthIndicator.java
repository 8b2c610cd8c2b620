package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.internal.provider.PlanCheck;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * DOWN while CaptchaAI does not answer the periodic {@code threadsinfo} (a transport failure or a
 * server error), UP once it answers again. Meant for the readiness group: a provider outage makes a
 * worker not ready, never not live.
 */
public class ProviderHealthIndicator implements HealthIndicator {

  private final PlanCheck planCheck;

  public ProviderHealthIndicator(PlanCheck planCheck) {
    this.planCheck = planCheck;
  }

  @Override
  public Health health() {
    HealthReading reading = HealthReading.ofProvider(planCheck);
    return (reading.up() ? Health.up() : Health.down()).withDetails(reading.details()).build();
  }
}
