package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.internal.engine.PlanCheck;
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
    return planCheck
        .unreachable()
        .map(
            u ->
                Health.down()
                    .withDetail("provider", "unreachable")
                    .withDetail("errorCode", String.valueOf(u.errorCode()))
                    .withDetail("since", String.valueOf(u.since()))
                    .build())
        .orElseGet(() -> Health.up().withDetail("provider", "answering").build());
  }
}
