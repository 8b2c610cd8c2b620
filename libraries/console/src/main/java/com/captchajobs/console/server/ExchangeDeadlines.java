package com.captchajobs.console.server;

import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Read deadlines for the JDK server, which has none of its own unless set JVM-wide ({@code
 * sun.net.httpserver.maxReqTime}, which a library must not set for its host): a worker thread is
 * armed with a deadline while it reads a request's headers (from the start of its task) and its
 * body ({@link BoundedExchange}), and disarmed before any handler runs. A thread still reading past
 * its deadline is interrupted; the JDK server reads from an interruptible {@link
 * java.nio.channels.SocketChannel}, so the connection is closed and the thread is free again.
 */
final class ExchangeDeadlines implements AutoCloseable {

  private static final long TICK_MILLIS = 250;

  private final Map<Thread, Long> armed = new HashMap<>();
  private final Refusals refusals;
  private final ScheduledExecutorService watchdog;

  ExchangeDeadlines(Refusals refusals) {
    this.refusals = refusals;
    this.watchdog =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "captchajobs-dashboard-watchdog");
              t.setDaemon(true);
              return t;
            });
    watchdog.scheduleWithFixedDelay(this::expire, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    watchdog.scheduleWithFixedDelay(refusals::flush, 1, 1, TimeUnit.MINUTES);
  }

  /** The current thread must finish reading within {@code deadline}. */
  void arm(Duration deadline) {
    synchronized (armed) {
      armed.put(Thread.currentThread(), System.nanoTime() + deadline.toNanos());
    }
  }

  /**
   * The current thread read what it had to; an interrupt the watchdog sent it a moment before is
   * cleared so that it cannot hit the next read.
   */
  void disarm() {
    synchronized (armed) {
      armed.remove(Thread.currentThread());
      Thread.interrupted();
    }
  }

  /**
   * Runs a task of the JDK server (reading a request's headers first) under the header deadline.
   */
  Runnable headersWithin(Duration deadline, Runnable exchange) {
    return () -> {
      arm(deadline);
      try {
        exchange.run();
      } finally {
        disarm();
      }
    };
  }

  private void expire() {
    long now = System.nanoTime();
    synchronized (armed) {
      for (Iterator<Map.Entry<Thread, Long>> it = armed.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<Thread, Long> e = it.next();
        if (now - e.getValue() > 0) {
          it.remove();
          e.getKey().interrupt();
          refusals.note(Refusals.Reason.DEADLINE);
        }
      }
    }
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
    refusals.flush();
  }
}
