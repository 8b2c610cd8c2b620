package com.captchajobs.core.internal.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lets a call through at most once per period on the engine's clock, from any number of threads at
 * once and without a lock: a summary line that a flood must not repeat (refused pushes, dropped
 * pushed fetches) or a check that a burst of errors must not repeat (the plan check). The first
 * call passes.
 */
public final class AtMostEvery {

  private final Duration period;
  private final Clock clock;
  private final AtomicReference<Instant> last = new AtomicReference<>(Instant.EPOCH);

  public AtMostEvery(Duration period, Clock clock) {
    this.period = period;
    this.clock = clock;
  }

  /**
   * Whether this call passes: at least the period has gone by since the last call that passed, and
   * no other thread passed meanwhile.
   */
  public boolean pass() {
    Instant now = clock.instant();
    Instant previous = last.get();
    return !now.isBefore(previous.plus(period)) && last.compareAndSet(previous, now);
  }
}
