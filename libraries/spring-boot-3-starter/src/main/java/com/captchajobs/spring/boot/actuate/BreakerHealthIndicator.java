package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.LocalWorker;
import com.captchajobs.core.Operations;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** DOWN while the breaker is open; details show gate use and the last plan check, never the key. */
public class BreakerHealthIndicator implements HealthIndicator {

  private final Operations operations;
  private final LocalWorker worker;

  /**
   * @param operations where the gate's figures are read
   * @param worker this node's worker, whose key's breaker and plan are shown
   */
  public BreakerHealthIndicator(Operations operations, LocalWorker worker) {
    this.operations = operations;
    this.worker = worker;
  }

  @Override
  public Health health() {
    HealthReading reading = HealthReading.ofBreaker(operations, worker);
    return (reading.up() ? Health.up() : Health.down()).withDetails(reading.details()).build();
  }
}
