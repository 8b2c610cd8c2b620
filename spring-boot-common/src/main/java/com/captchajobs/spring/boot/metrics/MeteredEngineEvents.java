package com.captchajobs.spring.boot.metrics;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.engine.EngineEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * Publishes the engine's events as Micrometer meters under {@code captchajobs.*}. Timers publish
 * percentile histograms (Prometheus {@code _bucket} series), never client-side percentiles, so that
 * {@code histogram_quantile} over the sum of every node's buckets is the fleet's percentile.
 */
public final class MeteredEngineEvents implements EngineEvents {

  private final MeterRegistry registry;

  public MeteredEngineEvents(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void submitted(CaptchaType type, boolean resumed) {
    Counter.builder("captchajobs.submits")
        .description("in.php submissions, and reruns that resumed a stored task id instead")
        .tag("kind", resumed ? "resumed" : "fresh")
        .tag("type", type.name())
        .register(registry)
        .increment();
  }

  @Override
  public void solved(CaptchaType type, Duration latency, int polls) {
    Timer.builder("captchajobs.solve.latency")
        .description("submit to token stored")
        .tag("type", type.name())
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofSeconds(1))
        .maximumExpectedValue(Duration.ofMinutes(10))
        .register(registry)
        .record(latency);
    DistributionSummary.builder("captchajobs.solve.polls")
        .description("res.php calls per solve")
        .tag("type", type.name())
        .serviceLevelObjectives(1, 2, 3, 5, 8, 13, 21, 34)
        .register(registry)
        .record(polls);
  }

  @Override
  public void error(String code, ErrorClass errorClass) {
    Counter.builder("captchajobs.errors")
        .description("classified CaptchaAI errors")
        .tag("code", code)
        .tag("class", errorClass.label())
        .register(registry)
        .increment();
  }

  @Override
  public void polled(CaptchaType type, Duration lateness) {
    Timer.builder("captchajobs.poll.lateness")
        .description("actual res.php call minus its intended instant (early calls count as 0)")
        .tag("type", type.name())
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(10))
        .maximumExpectedValue(Duration.ofMinutes(1))
        .register(registry)
        .record(lateness.isNegative() ? Duration.ZERO : lateness);
  }

  @Override
  public void handedOff(Duration delay) {
    Timer.builder("captchajobs.gate.handoff")
        .description("freed slot to the next in.php call of a waiting solve")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofMinutes(1))
        .register(registry)
        .record(delay.isNegative() ? Duration.ZERO : delay);
  }

  @Override
  public void claimed(CaptchaType type, Duration age) {
    Timer.builder("captchajobs.token.age")
        .description("token age when claimed (solved to claimed)")
        .tag("type", type.name())
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(100))
        .maximumExpectedValue(Duration.ofMinutes(5))
        .register(registry)
        .record(age.isNegative() ? Duration.ZERO : age);
  }
}
