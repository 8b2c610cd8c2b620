package com.captchajobs.simulator;

/**
 * Epoch milliseconds that never go backwards: the wall clock at creation plus elapsed {@link
 * System#nanoTime}. Every timestamp the simulator compares comes from here, so an answer is ready
 * exactly at acceptance + solve time whatever the wall clock does.
 */
final class SimClock {
  private final long baseEpochMillis = System.currentTimeMillis();
  private final long baseNanos = System.nanoTime();

  long nowMillis() {
    return baseEpochMillis + (System.nanoTime() - baseNanos) / 1_000_000L;
  }
}
