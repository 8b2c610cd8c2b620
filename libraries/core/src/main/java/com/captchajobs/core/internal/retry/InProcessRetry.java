package com.captchajobs.core.internal.retry;

import java.time.Duration;
import java.util.Optional;

/**
 * A few tries of one statement inside the running job, for what must not wait for JobRunr's retry
 * (the task id in.php just answered: invariant 9 of docs/architecture.md).
 */
public final class InProcessRetry {

  /** Told of each failed attempt, numbered from 1. */
  @FunctionalInterface
  public interface AttemptFailed {
    void failed(int attempt, RuntimeException e);
  }

  private InProcessRetry() {}

  /**
   * Runs {@code action} up to {@code attempts} times, pausing {@code pause} after the first failure
   * and twice as long after each next one. Empty when an attempt succeeded, else the last failure;
   * an interrupt ends the tries early and stays set.
   */
  public static Optional<RuntimeException> run(
      int attempts, Duration pause, Runnable action, AttemptFailed onFailure) {
    RuntimeException last = null;
    long millis = pause.toMillis();
    for (int attempt = 1; attempt <= attempts; attempt++) {
      try {
        action.run();
        return Optional.empty();
      } catch (RuntimeException e) {
        last = e;
        onFailure.failed(attempt, e);
      }
      if (attempt < attempts) {
        try {
          Thread.sleep(millis);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          break;
        }
        millis *= 2;
      }
    }
    return Optional.of(last);
  }
}
