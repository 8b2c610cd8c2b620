package com.captchajobs.simulator;

/**
 * Epoch milliseconds that never go backwards: the wall clock when the first simulator of this JVM
 * was made plus elapsed {@link System#nanoTime}. Every timestamp the simulator compares comes from
 * here, so an answer is ready exactly at acceptance + solve time whatever the wall clock does. The
 * base is one per JVM, so that several simulators (a primary and a backup provider) stamp their
 * records on the same clock and a harness can merge their logs.
 */
final class SimClock {
  private static final long BASE_EPOCH_MILLIS = System.currentTimeMillis();
  private static final long BASE_NANOS = System.nanoTime();

  private final long baseEpochMillis = BASE_EPOCH_MILLIS;
  private final long baseNanos = BASE_NANOS;

  long nowMillis() {
    return baseEpochMillis + (System.nanoTime() - baseNanos) / 1_000_000L;
  }
}
