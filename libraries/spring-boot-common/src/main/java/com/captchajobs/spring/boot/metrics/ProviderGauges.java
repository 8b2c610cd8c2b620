package com.captchajobs.spring.boot.metrics;

import com.captchajobs.core.Operations;
import com.captchajobs.core.model.ProviderRow;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The providers' fleet-wide figures ({@code Operations.providers()}, docs/providers.md), one gauge
 * per figure tagged {@code provider}: threads, slots in flight, breaker, today's spend and daily
 * budget. Bound only on a worker given providers beside the primary; every such worker publishes
 * the same values (use max).
 */
final class ProviderGauges implements MeterBinder {

  private static final Duration READ_EVERY = EngineGauges.READ_EVERY;

  private final Operations operations;
  private final List<String> names;
  private Map<String, ProviderRow> rows = Map.of();
  private long readAt;

  /**
   * @param names the primary's and each configured provider's name
   */
  ProviderGauges(Operations operations, List<String> names) {
    this.operations = operations;
    this.names = List.copyOf(names);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    for (String name : names) {
      gauge(registry, name, "threads", "its cap across the fleet", r -> r.threads());
      gauge(registry, name, "in.flight", "its gate slots held now", r -> r.inFlight());
      gauge(
          registry,
          name,
          "breaker.open",
          "1 while its breaker is open",
          r -> r.breakerOpen() ? 1 : 0);
      gauge(
          registry,
          name,
          "spent.today",
          "what it was charged this UTC day",
          r -> r.spentToday().doubleValue());
      gauge(
          registry,
          name,
          "daily.budget",
          "its budget per UTC day in force (NaN: no cap)",
          r -> r.dailyBudget() == null ? Double.NaN : r.dailyBudget().doubleValue());
    }
  }

  private void gauge(
      MeterRegistry registry,
      String provider,
      String figure,
      String description,
      ToDoubleFunction<ProviderRow> value) {
    Gauge.builder(
            "captchajobs.providers." + figure,
            this,
            g -> {
              try {
                ProviderRow row = g.rows().get(provider);
                return row == null ? Double.NaN : value.applyAsDouble(row);
              } catch (RuntimeException e) {
                return Double.NaN; // database unreachable: health says so
              }
            })
        .description("fleet: a provider's " + description + " (the same on every worker: use max)")
        .tag("provider", provider)
        .strongReference(true)
        .register(registry);
  }

  private synchronized Map<String, ProviderRow> rows() {
    long now = System.nanoTime();
    if (readAt == 0 || now - readAt >= READ_EVERY.toNanos()) {
      rows =
          operations.providers().stream()
              .collect(Collectors.toMap(ProviderRow::name, Function.identity()));
      readAt = now;
    }
    return rows;
  }
}
