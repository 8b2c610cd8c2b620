package com.captchajobs.core.internal.time;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The engine's background timers: each on one daemon thread, so none holds up the JVM's exit. */
public final class Timers {

  private Timers() {}

  /** A single-thread scheduler whose daemon thread is named {@code name}. */
  public static ScheduledExecutorService daemon(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  /** Runs {@code task} on {@code timer} every {@code interval}, the first time after one too. */
  public static void every(ScheduledExecutorService timer, Duration interval, Runnable task) {
    timer.scheduleWithFixedDelay(
        task, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }
}
