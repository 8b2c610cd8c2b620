package com.captchajobs.console;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The overview chart's memory: the gate's figures and the provider's working threads sampled every
 * {@link #EVERY} on the dashboard node, the last 15 minutes kept. A dashboard node that restarts
 * starts a fresh chart.
 */
final class Sampler implements AutoCloseable {

  static final Duration EVERY = Duration.ofSeconds(2);
  static final Duration KEPT = Duration.ofMinutes(15);

  private static final Logger log = LoggerFactory.getLogger(Sampler.class);

  private final ConsoleQueries queries;
  private final ArrayDeque<ConsoleQueries.Gauges> samples = new ArrayDeque<>();
  private ScheduledExecutorService timer;

  Sampler(ConsoleQueries queries) {
    this.queries = queries;
  }

  synchronized Sampler start() {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "captchajobs-console-sampler");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(this::sampleLogged, 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  private void sampleLogged() {
    try {
      add(queries.gauges());
    } catch (RuntimeException e) {
      log.debug("Console sample failed: {}", e.toString());
    }
  }

  /** Keeps a sample, dropping those older than {@link #KEPT} before it. */
  synchronized void add(ConsoleQueries.Gauges g) {
    samples.addLast(g);
    while (!samples.isEmpty() && samples.peekFirst().at().isBefore(g.at().minus(KEPT))) {
      samples.removeFirst();
    }
  }

  /** The kept samples, oldest first. */
  synchronized List<ConsoleQueries.Gauges> samples() {
    return List.copyOf(samples);
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
