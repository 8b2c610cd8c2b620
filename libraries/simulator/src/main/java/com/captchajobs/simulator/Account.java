package com.captchajobs.simulator;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.ObjLongConsumer;

/**
 * One API key: its plan (threads), the tasks holding its threads, the tasks queued for one, and its
 * stats. Everything is guarded by one lock per account.
 *
 * <p>Time is event-driven: {@link #settle} frees, at their exact ready instants, every thread whose
 * answer is due by {@code now}, and starts queued tasks at those instants. A timer calls it at each
 * ready instant, and every request calls it first, so a late timer never skews the stats.
 */
final class Account {
  enum Admission {
    STARTED,
    QUEUED,
    FULL
  }

  final String key;
  private final ReentrantLock lock = new ReentrantLock();
  private final SimClock clock;
  private final ObjLongConsumer<Account> wakeAt;
  private final Consumer<Task> onReady;
  private final PriorityQueue<Task> running =
      new PriorityQueue<>(
          Comparator.comparingLong((Task t) -> t.readyAt).thenComparingLong(t -> t.id));
  private final ArrayDeque<Task> queued = new ArrayDeque<>();
  private int threads;
  private KeyStats stats;
  private final KeyBilling billing;
  private final Set<String> pingbackHosts = ConcurrentHashMap.newKeySet();

  Account(
      String key,
      KeyPlan plan,
      SimClock clock,
      ObjLongConsumer<Account> wakeAt,
      Consumer<Task> onReady) {
    this.key = key;
    this.billing = new KeyBilling(plan);
    this.onReady = onReady;
    this.threads = plan.threads();
    this.clock = clock;
    this.wakeAt = wakeAt;
    this.stats = new KeyStats(clock.nowMillis());
  }

  /** Runs {@code action} under this account's lock, after settling up to the current instant. */
  <T> T withSettled(LongFunction<T> action) {
    lock.lock();
    try {
      long now = clock.nowMillis(); // read under the lock so events are recorded in time order
      settle(now);
      return action.apply(now);
    } finally {
      lock.unlock();
    }
  }

  void settleNow() {
    withSettled(now -> null);
  }

  int threads() {
    return withSettled(now -> threads);
  }

  /** Only under {@link #withSettled}. */
  KeyStats stats() {
    return stats;
  }

  /** Only under {@link #withSettled}. */
  KeyBilling billing() {
    return billing;
  }

  /** Only under {@link #withSettled}. */
  boolean hasFreeThread() {
    return running.size() < threads;
  }

  /**
   * Only under {@link #withSettled}: gives the task a thread, queues it, or reports the key full.
   */
  Admission admit(Task task, long now, boolean queueWhenFull) {
    if (running.size() < threads) {
      start(task, now);
      return Admission.STARTED;
    }
    if (queueWhenFull) {
      queued.add(task);
      return Admission.QUEUED;
    }
    return Admission.FULL;
  }

  void setThreads(int newThreads) {
    withSettled(
        now -> {
          threads = newThreads;
          startQueued(now);
          return null;
        });
  }

  void reset() {
    withSettled(
        now -> {
          running.clear();
          queued.clear();
          stats = new KeyStats(now);
          billing.reset();
          return null;
        });
  }

  private void settle(long now) {
    while (!running.isEmpty() && running.peek().readyAt <= now) {
      Task done = running.poll();
      stats.inFlightChange(done.readyAt, -1);
      done.settled = true;
      if (done.pingbackUrl != null) {
        onReady.accept(done);
      }
      if (done.outcome == Outcome.SOLVED) {
        stats.solved++;
        stats.pollsOnSolved += done.polls;
      }
      startQueued(done.readyAt);
    }
  }

  private void startQueued(long at) {
    while (running.size() < threads && !queued.isEmpty()) {
      start(queued.poll(), at);
    }
  }

  private void start(Task task, long at) {
    task.start(at);
    running.add(task);
    stats.inFlightChange(at, +1);
    wakeAt.accept(this, task.readyAt);
  }

  /** The hosts registered for pushes ({@code add_pingback}); thread-safe. */
  Set<String> pingbackHosts() {
    return pingbackHosts;
  }
}
