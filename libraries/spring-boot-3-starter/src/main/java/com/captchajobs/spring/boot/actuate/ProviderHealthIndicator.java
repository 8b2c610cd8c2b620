package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.LocalWorker;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * DOWN while CaptchaAI does not answer the periodic {@code threadsinfo} (a transport failure or a
 * server error), UP once it answers again. Meant for the readiness group: a provider outage makes a
 * worker not ready, never not live.
 */
public class ProviderHealthIndicator implements HealthIndicator {

  private final LocalWorker worker;

  /**
   * @param worker this node's worker, whose plan checks tell whether the provider answers
   */
  public ProviderHealthIndicator(LocalWorker worker) {
    this.worker = worker;
  }

  @Override
  public Health health() {
    HealthReading reading = HealthReading.ofProvider(worker);
    return (reading.up() ? Health.up() : Health.down()).withDetails(reading.details()).build();
  }
}
