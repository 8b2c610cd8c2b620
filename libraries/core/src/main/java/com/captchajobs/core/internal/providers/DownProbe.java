package com.captchajobs.core.internal.providers;

import com.captchajobs.core.internal.gate.ProviderLanes;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes an outage of the primary show within about a second, however few calls the fleet makes to
 * it: while pushes arrive, fallback polls are far apart, and no slot frees while answers cannot be
 * fetched, so in an outage the fleet's own calls may need seconds to reach {@link
 * ProviderLanes#DOWN_FAILURES}. Once a call to the primary meets server trouble, this node asks its
 * {@code threadsinfo} every {@link #STEP} (a cheap call, outside the 5-second rule, recorded as any
 * other call) until it answers, the gate judges it down, or {@link ProviderLanes#DOWN_FAILURES}
 * probes were made. A real answer ends the failing run, so a random fault costs one probe; when the
 * primary is judged down, free slots are handed to the waiting solves at once (a backup's).
 *
 * <p>One run at a time per node, on a short-lived daemon thread of its own; only with providers
 * beside the primary.
 */
final class DownProbe {

  private static final Logger log = LoggerFactory.getLogger(DownProbe.class);

  /** The time between probes: {@link ProviderLanes#DOWN_FAILURES} of them span the down rule's. */
  static final Duration STEP = ProviderLanes.DOWN_AFTER.dividedBy(ProviderLanes.DOWN_FAILURES - 1);

  private final BooleanSupplier probe;
  private final BooleanSupplier down;
  private final Runnable handOff;
  private final AtomicBoolean running = new AtomicBoolean();

  /**
   * @param probe one threadsinfo call to the primary, recorded; true when it answered
   * @param down whether the gate judges the primary down
   * @param handOff hands free slots to the waiting solves
   */
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
          log.warn(
              "The primary answers nothing but server trouble: judged down, solves go on at"
                  + " the other providers");
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
