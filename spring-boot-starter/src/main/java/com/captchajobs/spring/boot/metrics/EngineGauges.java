package com.captchajobs.spring.boot.metrics;

import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.engine.Breaker;
import com.captchajobs.core.internal.engine.FleetGate;
import com.captchajobs.core.internal.engine.PlanCheck;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;

/** The gate, the breaker and the provider's plan as gauges, read when scraped. */
public final class EngineGauges implements MeterBinder {

  private final FleetGate gate;
  private final Breaker breaker;
  private final PlanCheck planCheck;

  public EngineGauges(FleetGate gate, Breaker breaker, PlanCheck planCheck) {
    this.gate = gate;
    this.breaker = breaker;
    this.planCheck = planCheck;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(registry, "captchajobs.gate.in_flight", "gate slots held now", gate, g -> g.inFlight());
    gauge(
        registry,
        "captchajobs.gate.capacity",
        "the fleet cap, captchaai.threads",
        gate,
        g -> g.capacity());
    gauge(
        registry,
        "captchajobs.gate.waiting",
        "solves waiting for a thread",
        gate,
        g -> g.waiting());
    gauge(
        registry,
        "captchajobs.breaker.open",
        "1 while the breaker is open",
        breaker,
        b -> b.openState().isPresent() ? 1 : 0);
    gauge(
        registry,
        "captchajobs.provider.threads",
        "plan threads from the last threadsinfo",
        planCheck,
        p -> value(p.last(), true));
    gauge(
        registry,
        "captchajobs.provider.working_threads",
        "busy threads from the last threadsinfo",
        planCheck,
        p -> value(p.last(), false));
  }

  private static <T> void gauge(
      MeterRegistry r, String name, String description, T obj, ToDoubleFunction<T> f) {
    Gauge.builder(
            name,
            obj,
            o -> {
              try {
                return f.applyAsDouble(o);
              } catch (RuntimeException e) {
                return Double.NaN; // database unreachable: health says so
              }
            })
        .description(description)
        .register(r);
  }

  private static double value(ThreadsInfo info, boolean threads) {
    if (info == null) {
      return Double.NaN;
    }
    return threads ? info.threads() : info.workingThreads();
  }
}
