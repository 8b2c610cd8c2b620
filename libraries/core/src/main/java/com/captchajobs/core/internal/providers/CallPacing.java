package com.captchajobs.core.internal.providers;

import com.captchajobs.core.client.PollResult;
import com.captchajobs.core.internal.notify.PushNotice;
import com.captchajobs.core.internal.store.PushRings;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.store.TaskCalls;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider's 5-second rule on res.php calls, for the poll step: a call on a task is reserved
 * fleet-wide first (one statement, so two jobs cannot both call), made no sooner than 5 s (plus a
 * margin) after the task's last call, and timed from its answer. Waits happen in the calling job's
 * thread. It sits beside {@link Providers}, whose clients make the calls it paces.
 */
public final class CallPacing {

  private static final Logger log = LoggerFactory.getLogger(CallPacing.class);

  /**
   * How much later than 5 s after a call the next one is made. The provider counts the 5 s between
   * the calls as it receives them; a new measurement of the database clock's offset between two
   * calls, millisecond rounding and a slower first request (a new connection) can bring two calls a
   * few milliseconds closer there than here, so each keeps this margin.
   */
  public static final Duration SPACING_MARGIN = Duration.ofMillis(50);

  private final Providers providers;
  private final SolveTransitions transitions;
  private final SolveSettings settings;
  private final Clock clock;

  public CallPacing(
      Providers providers, SolveTransitions transitions, SolveSettings settings, Clock clock) {
    this.providers = providers;
    this.transitions = transitions;
    this.settings = settings;
    this.clock = clock;
  }

  /**
   * The reserved res.php call; its answer's instant then becomes the task's last call, so that the
   * next one keeps 5 s from the moment the provider surely had this one.
   */
  public PollResult call(Solve solve, int submitNo) {
    Providers.Provider provider = providers.get(solve.provider()); // its task's provider
    try {
      return providers.call(provider, () -> provider.client().get(solve.taskId()));
    } finally {
      try {
        transitions.calls().callAnswered(solve.id(), submitNo, clock.instant());
      } catch (RuntimeException e) {
        log.debug(
            "Could not time the last call on solve {} from its answer: {}",
            solve.id(),
            e.toString());
      }
    }
  }

  /** Reserves the res.php call at {@code called}: false when another was reserved within 5 s. */
  public boolean reserve(Solve solve, int submitNo, Instant called) {
    return transitions
        .calls()
        .reserveCall(
            solve.id(),
            submitNo,
            called,
            called.minus(settings.pollInterval()).minus(SPACING_MARGIN));
  }

  /**
   * Claims at {@code called} the res.php call a push rang for ({@link TaskCalls#claimPushedCall}):
   * reserved as by {@link #reserve}, and only while no call was reserved on the task since the
   * ring.
   */
  public TaskCalls.Claim claimPushed(PushNotice notice, Instant called) {
    return transitions
        .calls()
        .claimPushedCall(
            notice.solveId(),
            notice.submitNo(),
            notice.callNo(),
            called,
            called.minus(settings.pollInterval()).minus(SPACING_MARGIN));
  }

  /**
   * The intended instant, or later when the task's last recorded call was less than 5 s (plus the
   * margin) before it. A poll retried after a failed call (JobRunr may start a retry up to its poll
   * interval early) or run again after a crash would otherwise follow that call too soon.
   */
  public Instant notBeforeTheProviderAllows(Solve solve, int submitNo, Instant intended) {
    return transitions
        .calls()
        .lastPoll(solve.id(), submitNo)
        .map(last -> nextCallAfter(last.calledAt(), settings))
        .filter(earliest -> earliest.isAfter(intended))
        .orElse(intended);
  }

  /** The earliest instant of the next res.php call on a task whose last call was {@code called}. */
  public static Instant nextCallAfter(Instant called, SolveSettings settings) {
    return called.plus(settings.pollInterval()).plus(SPACING_MARGIN);
  }

  /**
   * The instant of the fetch a push rang for: its intended instant, and 5 s after the task's last
   * call before the push ({@code lastCallEpochMilli}, 0: none) at the soonest.
   */
  public static Instant pushedFetchAt(
      long lastCallEpochMilli, long intendedAtEpochMilli, SolveSettings settings) {
    Instant intended = Instant.ofEpochMilli(intendedAtEpochMilli);
    return lastCallEpochMilli == 0
        ? intended
        : latest(intended, nextCallAfter(Instant.ofEpochMilli(lastCallEpochMilli), settings));
  }

  /**
   * When the fetch a push rang ({@code rung}) is meant for: {@code soonest} (now, or 5 s after the
   * call before it), and 5 s after that call's answer, as {@link #claimPushed} counts, at the
   * soonest; the call before it is {@code lastPoll} as recorded (null: none).
   */
  public static Instant pushedFetchAt(
      PushRings.Rung rung, Instant lastPoll, Instant soonest, SolveSettings settings) {
    Instant at = soonest;
    if (lastPoll != null) {
      at = latest(at, nextCallAfter(lastPoll, settings));
    }
    return rung.lastCallAt() == null ? at : latest(at, nextCallAfter(rung.lastCallAt(), settings));
  }

  public static Instant latest(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /**
   * JobRunr starts a job up to one poll interval early: wait out the rest here. True when it
   * waited.
   */
  public boolean waitUntil(Instant intended) throws InterruptedException {
    boolean waited = false;
    Duration left;
    while (!(left = Duration.between(clock.instant(), intended)).isNegative() && !left.isZero()) {
      // rounded up: never a fraction of a millisecond early
      Thread.sleep(left.toMillis() + (left.toNanosPart() % 1_000_000 == 0 ? 0 : 1));
      waited = true;
    }
    return waited;
  }
}
