package com.captchajobs.core.internal.upkeep;

import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.gate.FleetGate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * During a provider outage every failed in.php call leaves its slot to a phantom holder for {@code
 * captchaai.lost-submit-hold} (the task may exist), so right after the outage every slot may be
 * held by phantoms for a minute while the provider is idle. While phantoms exist, each pass asks
 * the provider how many of the key's threads are working (one cheap call per pass for the whole
 * fleet; it doubles as the probe that notices the provider is back). Tasks we know of (submitted
 * solves) account for some of them; at most the rest can be tasks the phantoms stand for, so
 * phantoms beyond that number are freed and handed to waiting solves in this pass. The gate still
 * bounds every new in.php call, so the fleet cannot overshoot the cap: after this, the provider's
 * working threads never exceed the slots held.
 *
 * <p>Part of the repair pass ({@link Reconciler}), which runs it on one node at a time.
 */
final class PhantomRelease {

  private static final Logger log = LoggerFactory.getLogger(PhantomRelease.class);

  private volatile Supplier<ThreadsInfo> threadsInfo;

  /** {@code threadsInfo} asks the provider for the key's working threads; none: nothing freed. */
  void confirmWith(Supplier<ThreadsInfo> threadsInfo) {
    this.threadsInfo = threadsInfo;
  }

  /** Frees the phantom slots the provider's working threads rule out; returns how many. */
  int release(FleetGate gate) {
    Supplier<ThreadsInfo> probe = threadsInfo;
    if (probe == null) {
      return 0;
    }
    FleetGate.Phantoms before = gate.phantoms();
    if (before.phantoms() == 0) {
      return 0;
    }
    ThreadsInfo info;
    try {
      info = probe.get();
    } catch (RuntimeException e) {
      return 0; // not answering yet: the phantoms stay
    }
    FleetGate.Phantoms now = gate.phantoms();
    int mayExist = Math.max(0, info.workingThreads() - now.submitted());
    int freed = gate.releasePhantoms(now.phantoms() - mayExist);
    if (freed > 0) {
      log.info(
          "Freed {} phantom slot(s): the provider shows {} working thread(s) for {} known task(s)",
          freed,
          info.workingThreads(),
          now.submitted());
    }
    return freed;
  }
}
