package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PlanCheck;
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
    HealthReading reading = HealthReading.ofBreaker(breaker, gate, planCheck);
    return (reading.up() ? Health.up() : Health.down()).withDetails(reading.details()).build();
  }
}
