package com.captchajobs.console.server;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The dashboard's worker threads: a fixed number, and a bounded queue of exchanges waiting for one.
 * When both are full the exchange is refused: the JDK server closes its connection at once rather
 * than queue without end. Each task reads its request's headers under the header deadline.
 */
final class DashboardThreads implements Executor, AutoCloseable {

  private final ThreadPoolExecutor pool;
  private final ExchangeDeadlines deadlines;
  private final DashboardLimits limits;

  DashboardThreads(DashboardLimits limits, ExchangeDeadlines deadlines, Refusals refusals) {
    this.limits = limits;
    this.deadlines = deadlines;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            limits.threads(),
            limits.threads(),
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(limits.queue()),
            r -> {
              Thread t = new Thread(r, "captchajobs-dashboard-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            },
            (r, executor) -> {
              refusals.note(Refusals.Reason.BUSY);
              // the JDK server closes the connection of an exchange it could not hand over
              throw new RejectedExecutionException("the dashboard's threads and queue are full");
            });
    pool.allowCoreThreadTimeOut(true);
  }

  @Override
  public void execute(Runnable exchange) {
    pool.execute(deadlines.headersWithin(limits.headerDeadline(), exchange));
  }

  @Override
  public void close() {
    pool.shutdown();
    try {
      if (!pool.awaitTermination(2, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
