package com.captchajobs.core.internal.upkeep;

import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PlanCheck;
import com.captchajobs.core.internal.time.Timers;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's start and background: the preflight against the plan (before JobRunr takes jobs), the
 * fleet cap in the gate, then the recurring repair pass and the periodic threadsinfo check, and the
 * phantoms' reading soon after this node made one ({@link #readPhantomsSoon}).
 */
public final class WorkerStartup implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(WorkerStartup.class);

  /** How often the hand-off between passes runs. */
  public static final Duration DUE_HANDOFF_INTERVAL = Duration.ofSeconds(1);

  /** How often a phantom's reading is tried while another node's pass holds the lock. */
  static final Duration PHANTOM_READ_RETRY = Duration.ofMillis(150);

  /** Tries of one phantom's reading at most; after them the repair passes judge it. */
  static final int PHANTOM_READ_TRIES = 10;

  /** What the start reads: the threads and reserve, the preflight, the two intervals. */
  private final SolveSettings settings;

  private final FleetGate gate;
  private final PlanCheck planCheck;
  private final Breaker breaker;
  private final Reconciler reconciler;

  /** The periodic threadsinfo of the providers beside the primary, run after the primary's. */
  private final Runnable othersCheck;

  private final Runnable dueHandOff;

  private volatile ScheduledExecutorService executor;

  /** A phantom's reading is scheduled and has not started yet ({@link #readPhantomsSoon}). */
  private final AtomicBoolean phantomReadDue = new AtomicBoolean();

  /**
   * @param dueHandOff with providers beside the primary (null without): hands free slots to the
   *     waiting solves whose pause ({@code not_before}) ended, run every {@link
   *     #DUE_HANDOFF_INTERVAL} between the repair passes, so that a solve parked after server
   *     trouble at the primary meets a free thread (a backup's while the primary is down) within
   *     about a second whatever the pass's interval. Exact as every dispatch.
   */
  public WorkerStartup(
      SolveSettings settings,
      FleetGate gate,
      PlanCheck planCheck,
      Breaker breaker,
      Reconciler reconciler,
      Runnable othersCheck,
      Runnable dueHandOff) {
    this.settings = settings;
    this.gate = gate;
    this.planCheck = planCheck;
    this.breaker = breaker;
    this.reconciler = reconciler;
    this.othersCheck = othersCheck;
    this.dueHandOff = dueHandOff;
  }

  /**
   * Checks the plan and sets the fleet cap.
   *
   * @throws InvalidSettingException naming {@code threads(int)} when the plan is too small
   */
  public void prepare() {
    preflight();
    gate.resize(settings.threads());
  }

  private void preflight() {
    if (!settings.preflight()) {
      return;
    }
    ThreadsInfo info;
    try {
      info = planCheck.read();
    } catch (CaptchaAiException e) {
      if (e.errorClass() == ErrorClass.CREDENTIAL) {
        breaker.open(e.errorCode(), "preflight threadsinfo answered " + e.errorCode());
        log.error(
            "CaptchaAI rejected the API key at start ({}): breaker OPEN, health DOWN, no"
                + " submissions until an operator closes it",
            e.errorCode());
      } else {
        log.warn(
            "Preflight threadsinfo failed ({}, {}): starting without a plan check",
            e.errorCode(),
            e.errorClass());
      }
      return;
    }
    int usable = info.threads() - settings.threadsReserve();
    log.info(
        "CaptchaAI plan: {} threads, {} busy; fleet cap captchaai.threads={} (reserve {})",
        info.threads(),
        info.workingThreads(),
        settings.threads(),
        settings.threadsReserve());
    if (settings.threads() > usable) {
      throw new InvalidSettingException(
          ("{threads(int)}=%d exceeds the plan's %d threads minus {threadsReserve(int)}=%d (at"
                  + " most %d allowed)")
              .formatted(settings.threads(), info.threads(), settings.threadsReserve(), usable));
    }
  }

  /**
   * Starts the repair pass, the provider check and the job server watchdog; idempotent.
   *
   * @param serverRunning whether this node's JobRunr server runs
   * @param restartServer starts it again: JobRunr stops its server for good after a database outage
   *     of a few seconds, and the node would then process nothing
   */
  public synchronized void startBackground(
      java.util.function.BooleanSupplier serverRunning, Runnable restartServer) {
    startBackground();
    Timers.every(
        executor,
        settings.reconcileInterval(),
        () -> {
          try {
            if (!serverRunning.getAsBoolean()) {
              log.warn("The JobRunr server of this node stopped (database outage?): restarting it");
              restartServer.run();
            }
          } catch (RuntimeException e) {
            log.warn("Could not restart the JobRunr server, will try again: {}", e.toString());
          }
        });
  }

  /** Starts the repair pass and the provider check; idempotent. */
  public synchronized void startBackground() {
    if (executor != null) {
      return;
    }
    executor = Timers.daemon("captchajobs-reconciler");
    Timers.every(executor, settings.reconcileInterval(), reconciler);
    long due = DUE_HANDOFF_INTERVAL.toMillis();
    if (dueHandOff != null && settings.reconcileInterval().toMillis() > due) {
      // a pause ends between passes: a free slot then
      Timers.every(executor, DUE_HANDOFF_INTERVAL, this::handOffDue);
    }
    Timers.every(executor, settings.providerCheckInterval(), this::checkProvider);
  }

  /**
   * A phantom was made on this node: judges the phantoms now, on this node's reconciler thread,
   * instead of at the next repair pass (a reading taken after the phantom frees it once it settled,
   * if its in.php made no task). While another node's pass holds the lock it tries again every
   * {@link #PHANTOM_READ_RETRY}, at most {@link #PHANTOM_READ_TRIES} times; phantoms made while one
   * is due share it. Before the background started, the passes alone judge them.
   */
  public void readPhantomsSoon() {
    ScheduledExecutorService e = executor;
    if (e == null || !phantomReadDue.compareAndSet(false, true)) {
      return;
    }
    try {
      e.execute(() -> readPhantoms(1));
    } catch (RejectedExecutionException closing) {
      phantomReadDue.set(false);
    }
  }

  private void readPhantoms(int attempt) {
    phantomReadDue.set(false); // a phantom made from now on needs a reading after this one
    boolean ran;
    try {
      ran = reconciler.judgePhantoms();
    } catch (RuntimeException e) {
      log.debug("Judging the phantoms failed, the repair pass will: {}", e.toString());
      return;
    }
    ScheduledExecutorService e = executor;
    if (!ran
        && attempt < PHANTOM_READ_TRIES
        && e != null
        && phantomReadDue.compareAndSet(false, true)) {
      try {
        e.schedule(
            () -> readPhantoms(attempt + 1), PHANTOM_READ_RETRY.toMillis(), TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException closing) {
        phantomReadDue.set(false);
      }
    }
  }

  private void handOffDue() {
    try {
      dueHandOff.run();
    } catch (RuntimeException e) {
      log.debug("Hand-off between passes failed, the next will try again: {}", e.toString());
    }
  }

  /**
   * The periodic threadsinfo, published as captchajobs.provider.* gauges; then each other
   * provider's.
   */
  private void checkProvider() {
    try {
      planCheck.read();
    } catch (CaptchaAiException e) {
      if (e.errorClass() == ErrorClass.CREDENTIAL) {
        breaker.keyRejected(e.errorCode(), "threadsinfo");
      } else {
        log.warn("threadsinfo failed: {} ({})", e.errorCode(), e.errorClass());
      }
    } catch (RuntimeException e) {
      log.warn("threadsinfo failed: {}", e.toString());
    }
    try {
      othersCheck.run();
    } catch (RuntimeException e) {
      log.warn("threadsinfo of the other providers failed: {}", e.toString());
    }
  }

  @Override
  public synchronized void close() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }
}
