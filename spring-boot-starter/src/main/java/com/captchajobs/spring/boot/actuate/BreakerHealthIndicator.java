package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.engine.Breaker;
import com.captchajobs.core.internal.engine.FleetGate;
import com.captchajobs.core.internal.engine.PlanCheck;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** DOWN while the breaker is open; details show gate use and the last plan check, never the key. */
public class BreakerHealthIndicator implements HealthIndicator {

  private final Breaker breaker;
  private final FleetGate gate;
  private final PlanCheck planCheck;

  public BreakerHealthIndicator(Breaker breaker, FleetGate gate, PlanCheck planCheck) {
    this.breaker = breaker;
    this.gate = gate;
    this.planCheck = planCheck;
  }

  @Override
  public Health health() {
    Health.Builder builder =
        breaker
            .openState()
            .map(
                s ->
                    Health.down()
                        .withDetail("breaker", "open")
                        .withDetail("errorCode", String.valueOf(s.errorCode()))
                        .withDetail("reason", String.valueOf(s.reason()))
                        .withDetail("openedAt", String.valueOf(s.openedAt())))
            .orElseGet(() -> Health.up().withDetail("breaker", "closed"));
    builder
        .withDetail("keyFingerprint", breaker.fingerprint())
        .withDetail("gateInFlight", gate.inFlight())
        .withDetail("gateCapacity", gate.capacity())
        .withDetail("gateWaiting", gate.waiting());
    ThreadsInfo last = planCheck.last();
    if (last != null) {
      builder
          .withDetail("providerThreads", last.threads())
          .withDetail("providerWorkingThreads", last.workingThreads());
    }
    return builder.build();
  }
}
