package com.captchajobs.core.internal.upkeep;

import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.gate.PhantomSlots;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * During a provider outage every failed in.php call leaves its slot to a phantom holder for {@code
 * captchaai.lost-submit-hold} (the task may exist), so right after the outage every slot may be
 * held by phantoms for a minute while the provider is idle. While phantoms exist, the repair pass
 * reads how many of the key's threads are working (res.php {@code threadsinfo}: one cheap call per
 * pass for the whole fleet; it doubles as the probe that notices the provider is back). Phantoms
 * beyond all the working threads are freed at once: after an outage the provider is idle and every
 * phantom goes. The rest of the reading is judged {@link #SETTLE} later in the same pass, and again
 * at the later passes, against what they have shown since.
 *
 * <p>At most the working threads that known tasks do not account for can be tasks the phantoms
 * stand for, so phantoms beyond that number are freed and handed to waiting solves. A known task
 * accounts for a working thread only with evidence that it was running at the reading (see {@link
 * PhantomSlots#evidence}): a task whose answer was ready at the provider but not yet here frees a
 * thread there while its slot is still held here, and counting it as running would free a phantom
 * whose task still runs, one task over the cap as soon as that answer frees its slot. Judging the
 * reading later gives every answer that was ready at the reading the time to be pushed and stored,
 * and shows which known tasks answered only well after it. Only phantoms made before the reading
 * are judged: a later one's task is not in it.
 *
 * <p>One per provider: a provider's threadsinfo counts its own key's threads only, so each
 * provider's readings are judged against the phantoms on its own slots and its own known tasks,
 * never another's (a phantom of a lost in.php reply at a backup is freed by the backup's reading,
 * and its cap stays exact as the primary's). Part of the repair pass ({@link Reconciler}), which
 * runs it on one node at a time.
 */
final class PhantomRelease {

  private static final Logger log = LoggerFactory.getLogger(PhantomRelease.class);

  /**
   * How long a reading waits before it is judged: longer than {@link PhantomSlots#ANSWER_LAG}, so
   * that an answer ready at the provider when it was taken has arrived by then.
   */
  static final Duration SETTLE = PhantomSlots.ANSWER_LAG.multipliedBy(2);

  /**
   * How many readings are kept and judged again at every pass: a later answer or poll can still
   * show a known task running at an older reading, and a poll made just before one reading is after
   * the one before it.
   */
  static final int KEPT_READINGS = 8;

  /** A provider reading: the working threads, read between {@code before} and {@code after}. */
  private record ThreadsSample(Instant before, Instant after, int workingThreads) {}

  private final String provider;
  private final Supplier<ThreadsInfo> threadsInfo;

  /** The readings kept, oldest first; only the repair pass touches them, one pass at a time. */
  private final Deque<ThreadsSample> readings = new ArrayDeque<>();

  /**
   * {@code threadsInfo} asks {@code provider} for its key's working threads; null: nothing freed.
   */
  PhantomRelease(String provider, Supplier<ThreadsInfo> threadsInfo) {
    this.provider = provider;
    this.threadsInfo = threadsInfo;
  }

  String provider() {
    return provider;
  }

  /** {@link #release} of each provider's phantoms in turn; returns how many were freed in all. */
  static int releaseAll(List<PhantomRelease> each, PhantomSlots phantoms) {
    int freed = 0;
    for (PhantomRelease release : each) {
      try {
        freed += release.release(phantoms);
      } catch (RuntimeException e) {
        log.warn("Phantoms of {} not judged: {}", release.provider(), e.toString());
      }
    }
    return freed;
  }

  /**
   * Takes a new reading, which frees at once the phantoms beyond all its working threads (after an
   * outage the provider is idle: every phantom goes), waits for it to settle and judges it with the
   * kept ones; returns how many were freed.
   */
  synchronized int release(PhantomSlots phantoms) {
    Supplier<ThreadsInfo> probe = threadsInfo;
    if (probe == null) {
      return 0;
    }
    if (phantoms.held(provider) == 0) {
      readings.clear();
      return 0;
    }
    ThreadsSample next = read(phantoms, probe);
    if (next == null) {
      readings.clear(); // the provider is away: what it showed before is no guide to it now
      return 0;
    }
    int freed = judge(phantoms, next, false);
    readings.addLast(next);
    if (readings.size() > KEPT_READINGS) {
      readings.removeFirst();
    }
    if (phantoms.held(provider) == 0 || !settle()) {
      return freed;
    }
    Instant now = phantoms.databaseNow();
    for (ThreadsSample r : readings) {
      if (Duration.between(r.after(), now).compareTo(SETTLE) >= 0) {
        freed += judge(phantoms, r, true);
      }
    }
    return freed;
  }

  /** Waits for the new reading to settle; false when the node is stopping. */
  private static boolean settle() {
    try {
      Thread.sleep(SETTLE.plusMillis(50).toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Frees the phantoms made before {@code r} beyond the working threads that known tasks shown
   * running at {@code r} do not account for; {@code withEvidence} false counts none of them.
   */
  private int judge(PhantomSlots phantoms, ThreadsSample r, boolean withEvidence) {
    PhantomSlots.Evidence e = phantoms.evidence(provider, r.before(), r.after());
    int known = withEvidence ? e.knownRunning() : 0;
    int mayExist = Math.max(0, r.workingThreads() - known);
    int freed = phantoms.release(provider, e.phantoms() - mayExist, r.before());
    if (freed > 0) {
      log.info(
          "Freed {} phantom slot(s) of provider {}: it showed {} working thread(s), {} of them"
              + " known tasks",
          freed,
          provider,
          r.workingThreads(),
          known);
    }
    return freed;
  }

  /** A reading of the provider's working threads; null when it does not answer (yet). */
  private static ThreadsSample read(PhantomSlots phantoms, Supplier<ThreadsInfo> probe) {
    Instant before = phantoms.databaseNow();
    try {
      int working = probe.get().workingThreads();
      return new ThreadsSample(before, phantoms.databaseNow(), working);
    } catch (RuntimeException e) {
      return null; // not answering yet: the phantoms stay
    }
  }
}
