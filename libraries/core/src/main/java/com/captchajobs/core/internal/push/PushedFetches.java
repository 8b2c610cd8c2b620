package com.captchajobs.core.internal.push;

import com.captchajobs.core.internal.notify.PushNotice;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.internal.notify.Subscription;
import com.captchajobs.core.internal.time.AtMostEvery;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's fetches of pushed answers at their instant, outside JobRunr's queue (see "Pushed
 * answers" in docs/architecture.md). A push that rings creates the fetch's JobRunr job and tells
 * every worker ({@link PushNotice}, on {@link SolveNotifications#PUSH_CHANNEL}); here each worker
 * schedules the fetch for the notice's instant on a small executor of its own, so it never waits
 * behind JobRunr's threads, which a backlog keeps busy with polls waiting for their instants. Every
 * worker tries; one statement lets exactly one of them make the call (the claim of {@code
 * steps.PollStep}), the others end there. The job stays the durable fallback (a notice lost, a
 * worker gone, this executor full): run after the fetch, it finds the call made and ends.
 *
 * <p>Bounded: {@link #THREADS} threads, each held by one res.php call and its outcome and never by
 * a wait (the executor starts a fetch at its instant), and at most {@link #MAX_PENDING} fetches
 * waiting for theirs; a notice beyond that is dropped and its job makes the fetch. Only worker
 * nodes have one: a node without a worker only sends notices.
 *
 * <p>A fetch whose token frees a slot may carry the in.php of the solve the slot is handed to in
 * its own thread, as a running job does ({@link Fetch#fetch}'s {@code mayCarry}), while the
 * executor is quiet: at most {@link #CARRY_WHILE_RUNNING} fetches running, this one among them, and
 * this one started within {@link #CARRY_WHEN_LATE_BY} of its instant. Otherwise the handed solve
 * gets a submit job, so that a burst of pushed answers (a large plan) is fetched first.
 */
public final class PushedFetches implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(PushedFetches.class);

  /** Threads making the fetches. */
  static final int THREADS = 4;

  /** Fetches waiting for their instant or a thread, at most; the next notices are dropped. */
  static final int MAX_PENDING = 2_000;

  /**
   * Claims of one notice at most: each one after the first follows a task whose last call was
   * answered less than 5 s before the claim (its call is timed from its answer).
   */
  static final int MAX_TRIES = 3;

  /** Fetches running at most, this one among them, for a fetch to carry a handed solve's in.php. */
  static final int CARRY_WHILE_RUNNING = THREADS / 2;

  /** A fetch that started this late after its instant leaves a handed solve to a submit job. */
  static final Duration CARRY_WHEN_LATE_BY = Duration.ofMillis(250);

  /** How often at most a summary of dropped notices is logged. */
  static final Duration DROPPED_LOG_EVERY = Duration.ofMinutes(1);

  /** What a fetch runs: the solve's life ({@code steps.SolveLife#fetchPushed}). */
  @FunctionalInterface
  public interface Fetch {
    /**
     * Makes the fetch if this worker's claim wins; returns when to claim again, if ever. With
     * {@code mayCarry}, a slot its token frees may be handed to a waiting solve submitted in this
     * thread.
     */
    Optional<Instant> fetch(PushNotice notice, boolean mayCarry) throws InterruptedException;
  }

  private final Fetch fetch;
  private final Clock clock;
  private final ScheduledThreadPoolExecutor executor;
  private final AtomicInteger pending = new AtomicInteger();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();
  private final AtMostEvery droppedLog;
  private volatile Subscription listening;

  /** {@code clock} is the engine's clock, which the notices' instants are on. */
  public PushedFetches(Fetch fetch, Clock clock) {
    this.fetch = fetch;
    this.clock = clock;
    this.droppedLog = new AtMostEvery(DROPPED_LOG_EVERY, clock);
    AtomicInteger threadNo = new AtomicInteger();
    this.executor =
        new ScheduledThreadPoolExecutor(
            THREADS,
            r -> {
              Thread t = new Thread(r, "captchajobs-pushed-fetch-" + threadNo.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** Fetches on the notices {@code notifications} receives, until closed. */
  public PushedFetches listenOn(SolveNotifications notifications) {
    listening = notifications.addPushListener(this::onNotice);
    return this;
  }

  /** Schedules the fetch of a notice at its instant; returns at once (the listener's thread). */
  void onNotice(PushNotice notice) {
    schedule(notice, Instant.ofEpochMilli(notice.intendedAtEpochMilli()), 1);
  }

  /** Fetches waiting for their instant or a thread. */
  public int pending() {
    return pending.get();
  }

  /** Notices dropped since start because too many fetches were waiting. */
  public long droppedCount() {
    return dropped.get();
  }

  private void schedule(PushNotice notice, Instant at, int tries) {
    if (pending.incrementAndGet() > MAX_PENDING) {
      pending.decrementAndGet();
      dropped(notice);
      return;
    }
    long delayNanos = Math.max(0, Duration.between(clock.instant(), at).toNanos());
    try {
      executor.schedule(() -> run(notice, at, tries), delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      pending.decrementAndGet(); // closing: the job stands
    }
  }

  private void run(PushNotice notice, Instant at, int tries) {
    pending.decrementAndGet();
    boolean mayCarry =
        running.incrementAndGet() <= CARRY_WHILE_RUNNING
            && !clock.instant().isAfter(at.plus(CARRY_WHEN_LATE_BY));
    try {
      Optional<Instant> again = fetch.fetch(notice, mayCarry);
      if (again.isPresent() && tries < MAX_TRIES) {
        schedule(notice, again.get(), tries + 1);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the node stops: the fetch's job stands
    } catch (RuntimeException e) {
      log.info(
          "Solve {}: the pushed fetch on this worker failed ({}); its job stands",
          notice.solveId(),
          e.toString());
    } finally {
      running.decrementAndGet();
    }
  }

  private void dropped(PushNotice notice) {
    long total = dropped.incrementAndGet();
    if (droppedLog.pass()) {
      log.warn(
          "{} pushed fetches wait on this worker: the fetch of solve {} is left to its job ({}"
              + " left so since start)",
          MAX_PENDING,
          notice.solveId(),
          total);
    }
  }

  /**
   * Stops listening and drops the fetches still waiting for their instant (their jobs stand); a
   * fetch under way may end its call, else it is interrupted after a moment.
   */
  @Override
  public void close() {
    Subscription l = listening;
    if (l != null) {
      l.close();
    }
    executor.shutdown();
    try {
      if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
