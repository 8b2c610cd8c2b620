package com.captchajobs.core.internal.retry;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The ±25 % spread of every retry wait (solve retries, webhook retries, a webhook lane's
 * send-back), so that a fleet's retries do not arrive together.
 */
public final class Jitter {

  private Jitter() {}

  /** {@code amount} times a uniform factor in [0.75, 1.25), rounded, never below {@code floor}. */
  public static long spread(long amount, long floor) {
    double factor = 0.75 + ThreadLocalRandom.current().nextDouble() * 0.5;
    return Math.max(floor, Math.round(amount * factor));
  }
}
