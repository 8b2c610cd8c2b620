package com.captchajobs.core.internal.upkeep;

import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.gate.PhantomSlots;
import java.time.Duration;
import java.time.Instant;
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
 * phantom goes. The rest of the reading is judged at a later pass, at least {@link #SETTLE} after
 * it was taken.
 *
 * <p>At most the working threads that known tasks do not account for can be tasks the phantoms
 * stand for, so phantoms beyond that number are freed and handed to waiting solves. A known task
 * accounts for a working thread only with evidence that it was running at the reading (see {@link
 * PhantomSlots#evidence}): a task whose answer was ready at the provider but not yet here frees a
 * thread there while its slot is still held here, and counting it as running would free a phantom
 * whose task still runs, one task over the cap as soon as that answer frees its slot. Judging the
 * reading later gives every answer that was ready at the reading the time to be pushed and stored.
 * Only phantoms made before the reading are judged: a later one's task is not in it.
 *
 * <p>Part of the repair pass ({@link Reconciler}), which runs it on one node at a time.
 */
final class PhantomRelease {

  private static final Logger log = LoggerFactory.getLogger(PhantomRelease.class);

  /**
   * How long a reading waits before it is judged: an answer ready at the provider when it was taken
   * has been pushed and stored by then, and a poll answered "not ready" since shows a task running.
   */
  static final Duration SETTLE = Duration.ofSeconds(1);

  /** A provider reading: the working threads, read between {@code before} and {@code after}. */
  private record Reading(Instant before, Instant after, int workingThreads) {}

  private volatile Supplier<ThreadsInfo> threadsInfo;
  private volatile Reading reading;

  /** {@code threadsInfo} asks the provider for the key's working threads; none: nothing freed. */
  void confirmWith(Supplier<ThreadsInfo> threadsInfo) {
    this.threadsInfo = threadsInfo;
  }

  /**
   * Judges the last reading once it has settled and takes the next one, which frees at once the
   * phantoms beyond all its working threads (after an outage the provider is idle: every phantom
   * goes); returns how many were freed.
   */
  int release(PhantomSlots phantoms) {
    Supplier<ThreadsInfo> probe = threadsInfo;
    if (probe == null) {
      return 0;
    }
    if (phantoms.held() == 0) {
      reading = null;
      return 0;
    }
    Reading last = reading;
    if (last != null
        && Duration.between(last.after(), phantoms.databaseNow()).compareTo(SETTLE) < 0) {
      return 0; // judged at a later pass
    }
    int freed = last == null ? 0 : judge(phantoms, last, true);
    Reading next = read(phantoms, probe);
    reading = next;
    return next == null ? freed : freed + judge(phantoms, next, false);
  }

  /**
   * Frees the phantoms made before {@code r} beyond the working threads that known tasks shown
   * running at {@code r} do not account for; {@code withEvidence} false counts none of them.
   */
  private static int judge(PhantomSlots phantoms, Reading r, boolean withEvidence) {
    PhantomSlots.Evidence e = phantoms.evidence(r.before(), r.after());
    int known = withEvidence ? e.knownRunning() : 0;
    int mayExist = Math.max(0, r.workingThreads() - known);
    int freed = phantoms.release(e.phantoms() - mayExist, r.before());
    if (freed > 0) {
      log.info(
          "Freed {} phantom slot(s): the provider showed {} working thread(s), {} of them known"
              + " tasks",
          freed,
          r.workingThreads(),
          known);
    }
    return freed;
  }

  /** A reading of the provider's working threads; null when it does not answer (yet). */
  private static Reading read(PhantomSlots phantoms, Supplier<ThreadsInfo> probe) {
    Instant before = phantoms.databaseNow();
    try {
      int working = probe.get().workingThreads();
      return new Reading(before, phantoms.databaseNow(), working);
    } catch (RuntimeException e) {
      return null; // not answering yet: the phantoms stay
    }
  }
}
