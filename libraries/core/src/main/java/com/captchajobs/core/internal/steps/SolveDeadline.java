package com.captchajobs.core.internal.steps;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.time.DatabaseClock;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bound on a solve's life ({@code captchaai.solve-deadline}, from enqueue or from its last
 * operator requeue, on the database clock): the submit and poll jobs ask it before each attempt,
 * and past the deadline it ends the solve FAILED with {@link #DEADLINE_EXCEEDED}, a dead job (what
 * becomes of its slot is the engine's {@code TaskOutcomes}' to say). A solve well within its
 * deadline by the engine's clock (the database's, see {@link DatabaseClock}) costs no statement;
 * near or past it, the database decides (a requeued solve, whose life restarted at the requeue,
 * always asks it).
 */
public final class SolveDeadline {

  /** The code of a solve failed because its deadline passed. */
  public static final String DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED";

  private static final Logger log = LoggerFactory.getLogger(SolveDeadline.class);

  private final SolveTransitions transitions;
  private final SolveSettings settings;
  private final EngineListener events;
  private final Clock clock;

  /** Closer than this to the deadline by the engine's clock, the database is asked. */
  static final Duration MARGIN = Duration.ofSeconds(5);

  public SolveDeadline(
      SolveTransitions transitions, SolveSettings settings, EngineListener events, Clock clock) {
    this.transitions = transitions;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
  }

  /** Empty when the solve is within its deadline; otherwise fails it and says so. */
  public Optional<Step.Failed> failIfPast(Solve solve) {
    if (solve.createdAt() != null
        && solve
            .createdAt()
            .plus(settings.solveDeadline())
            .minus(MARGIN)
            .isAfter(clock.instant())) {
      return Optional.empty();
    }
    if (!transitions.failIfPastDeadline(
        solve.id(),
        settings.solveDeadline(),
        SolveDeadline.DEADLINE_EXCEEDED,
        ErrorClass.DEADLINE)) {
      return Optional.empty();
    }
    events.error(SolveDeadline.DEADLINE_EXCEEDED, ErrorClass.DEADLINE);
    log.warn(
        "Solve {} ({}) FAILED: {} (no outcome within captchaai.solve-deadline={})",
        solve.businessKey(),
        solve.id(),
        SolveDeadline.DEADLINE_EXCEEDED,
        settings.solveDeadline());
    return Optional.of(
        new Step.Failed(solve.id(), SolveDeadline.DEADLINE_EXCEEDED, ErrorClass.DEADLINE));
  }

  /**
   * True when the answer may be older than its type's token lifetime: found late (after an outage
   * or a crash), longer after the last "not ready" (or the submission) than both the token lifetime
   * and the solve timeout, which no ordinary poll rhythm comes near. Handing it out could hand out
   * an expired token, so the solve is submitted afresh instead.
   */
  boolean answerMayBePastItsUse(Solve solve, int submitNo) {
    Duration ttl = settings.tokenTtl(solve.type());
    Duration late = ttl.compareTo(settings.solveTimeout()) > 0 ? ttl : settings.solveTimeout();
    Instant now = clock.instant();
    if (!solve.submittedAt().plus(late).isBefore(now)) {
      return false; // the usual case: no query
    }
    Instant notReady =
        transitions.calls().lastNotReadyAt(solve.id(), submitNo).orElse(solve.submittedAt());
    return notReady.plus(late).isBefore(now);
  }
}
