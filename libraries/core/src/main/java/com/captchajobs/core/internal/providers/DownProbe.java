package com.captchajobs.core.internal.providers;

import com.captchajobs.core.internal.gate.ProviderLanes;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After a call to the primary met server trouble, asks its {@code threadsinfo} every {@link #STEP}
 * until it answers, the gate judges it down (then hands free slots out at once), or {@link
 * ProviderLanes#DOWN_FAILURES} probes were made: in an outage the fleet's own calls are rare, and
 * the down rule would wait for them (docs/providers.md). One run at a time per node, on a daemon
 * thread of its own.
 */
final class DownProbe {

  private static final Logger log = LoggerFactory.getLogger(DownProbe.class);

  /** The time between probes: {@link ProviderLanes#DOWN_FAILURES} of them span the down rule's. */
  static final Duration STEP = ProviderLanes.DOWN_AFTER.dividedBy(ProviderLanes.DOWN_FAILURES - 1);

  private final BooleanSupplier probe;
  private final BooleanSupplier down;
  private final Runnable handOff;
  private final AtomicBoolean running = new AtomicBoolean();

  /** {@code probe}: one recorded threadsinfo call, true when the primary answered it. */
  DownProbe(BooleanSupplier probe, BooleanSupplier down, Runnable handOff) {
    this.probe = probe;
    this.down = down;
    this.handOff = handOff;
  }

  /** A call to the primary met server trouble: starts a run unless one is under way. */
  void serverTrouble() {
    if (running.compareAndSet(false, true)) {
      Thread t = new Thread(this::run, "captchajobs-down-probe");
      t.setDaemon(true);
      t.start();
    }
  }

  /** Whether a run is under way (for tests). */
  boolean running() {
    return running.get();
  }

  private void run() {
    try {
      if (down.getAsBoolean()) {
        return; // judged down already: the gate keeps solves away until its own probe
      }
      for (int i = 0; i < ProviderLanes.DOWN_FAILURES; i++) {
        Thread.sleep(STEP.toMillis());
        if (probe.getAsBoolean()) {
          return; // it answered: the failing run is over
        }
        if (down.getAsBoolean()) {
          log.warn("The primary answers only server trouble: judged down, solves go elsewhere");
          handOff.run();
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.debug("Probing the primary failed: {}", e.toString());
    } finally {
      running.set(false);
    }
  }
}
