package com.captchajobs.spring.boot.metrics;

import com.captchajobs.core.LocalWorker;
import com.captchajobs.core.Operations;
import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.model.BreakerRow;
import com.captchajobs.core.model.Gate;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The gate, the breaker, the provider's plan and CaptchaJobs' jobs by state as gauges.
 *
 * <p>The gate's figures and the jobs by state are the fleet's, not the node's: one worker at a time
 * (the reporter, holding a lease in {@code captchajobs.gate}) publishes them and every other worker
 * publishes 0, so that {@code sum()} and {@code max()} over nodes are both the fleet's value. The
 * database is read at most once per {@link #READ_EVERY} whatever the scrape rate.
 *
 * <p>The registry holds the gauges' objects strongly: nothing else keeps them, and Micrometer's
 * default weak reference would turn every gauge to NaN at the first garbage collection.
 */
public final class EngineGauges implements MeterBinder {

  /** The longest a scraped figure is old: the database is read at most this often. */
  public static final Duration READ_EVERY = Duration.ofSeconds(5);

  /** How long a reporter keeps the role without being scraped before another worker takes it. */
  public static final Duration REPORTER_LEASE = Duration.ofSeconds(60);

  /** The job states of {@code captchajobs.jobs.by.state}. */
  public static final List<String> JOB_STATES =
      List.of("AWAITING", "SCHEDULED", "ENQUEUED", "PROCESSING", "FAILED", "SUCCEEDED", "DELETED");

  private final LocalWorker worker;

  private final Cached<Optional<Gate>> reading;
  private final Cached<Map<String, Long>> jobs;
  private final Cached<Boolean> breakerOpen;
  private final Cached<Long> deadSolves;

  /** The window of {@code captchajobs.solves.failed.recent}. */
  public static final Duration DEAD_SOLVES_WINDOW = Duration.ofMinutes(10);

  /**
   * @param operations the fleet's figures: CaptchaJobs' jobs by state and the dead solves
   * @param worker this node's worker: its turn as the reporter, its key's breaker and plan
   */
  public EngineGauges(Operations operations, LocalWorker worker) {
    this.worker = worker;
    this.reading = new Cached<>(() -> worker.reportGate(REPORTER_LEASE));
    this.jobs = new Cached<>(operations::jobCounts);
    this.breakerOpen = new Cached<>(() -> worker.breaker().map(BreakerRow::open).orElse(false));
    this.deadSolves = new Cached<>(() -> operations.failedWithin(DEAD_SOLVES_WINDOW));
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(
        registry,
        "captchajobs.gate.in.flight",
        "fleet: gate slots held now (published by the reporter, 0 elsewhere)",
        this,
        g -> g.fleet().inFlight());
    gauge(
        registry,
        "captchajobs.gate.capacity",
        "fleet: the cap, captchaai.threads (published by the reporter, 0 elsewhere)",
        this,
        g -> g.fleet().capacity());
    gauge(
        registry,
        "captchajobs.gate.waiting",
        "fleet: solves waiting for a thread (published by the reporter, 0 elsewhere)",
        this,
        g -> g.fleet().waiting());
    gauge(
        registry,
        "captchajobs.gate.reporter",
        "1 on the one worker that publishes the fleet's gauges",
        this,
        g -> g.reading.get().isPresent() ? 1 : 0);
    for (String state : JOB_STATES) {
      Gauge.builder(
              "captchajobs.jobs.by.state",
              this,
              g -> safely(() -> g.jobsIfReporter().getOrDefault(state, 0L).doubleValue()))
          .description(
              "fleet: CaptchaJobs' own JobRunr jobs by state (published by the reporter, 0"
                  + " elsewhere)")
          .tag("state", state)
          .strongReference(true)
          .register(registry);
    }
    gauge(
        registry,
        "captchajobs.solves.failed.recent",
        "fleet: solves that ended FAILED in the last 10 minutes (published by the reporter, 0"
            + " elsewhere)",
        this,
        g -> g.reading.get().isPresent() ? g.deadSolves.get() : 0);
    gauge(
        registry,
        "captchajobs.breaker.open",
        "1 while the breaker is open (the same on every worker: use max)",
        breakerOpen,
        b -> b.get() ? 1 : 0);
    gauge(
        registry,
        "captchajobs.provider.threads",
        "plan threads from the last threadsinfo",
        worker,
        w -> value(w.lastPlan(), true));
    gauge(
        registry,
        "captchajobs.provider.working.threads",
        "busy threads from the last threadsinfo",
        worker,
        w -> value(w.lastPlan(), false));
  }

  /** The gate's reading when this node reports, zeros otherwise. */
  private Gate fleet() {
    return reading.get().orElse(new Gate(0, 0, 0));
  }

  private Map<String, Long> jobsIfReporter() {
    return reading.get().isPresent() ? jobs.get() : Map.of();
  }

  private static double safely(Supplier<Double> value) {
    try {
      return value.get();
    } catch (RuntimeException e) {
      return Double.NaN; // database unreachable: health says so
    }
  }

  private static <T> void gauge(
      MeterRegistry r, String name, String description, T obj, ToDoubleFunction<T> f) {
    Gauge.builder(name, obj, o -> safely(() -> f.applyAsDouble(o)))
        .description(description)
        .strongReference(true) // nothing else holds the gauges' objects
        .register(r);
  }

  private static double value(Optional<ThreadsInfo> last, boolean threads) {
    if (last.isEmpty()) {
      return Double.NaN;
    }
    return threads ? last.get().threads() : last.get().workingThreads();
  }

  /** A value read at most once per {@link #READ_EVERY}; a failed read is retried next time. */
  private static final class Cached<T> {
    private final Supplier<T> read;
    private T value;
    private long readAt;

    Cached(Supplier<T> read) {
      this.read = read;
    }

    synchronized T get() {
      long now = System.nanoTime();
      if (value == null || now - readAt >= READ_EVERY.toNanos()) {
        value = read.get();
        readAt = now;
      }
      return value;
    }
  }
}
