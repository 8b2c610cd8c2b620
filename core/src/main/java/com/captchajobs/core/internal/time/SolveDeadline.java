package com.captchajobs.core.internal.time;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.config.EngineEvents;
import com.captchajobs.core.internal.config.EngineSettings;
import com.captchajobs.core.internal.retry.PermanentSolveException;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bound on a solve's life ({@code captchaai.solve-deadline}, from enqueue or from its last
 * operator requeue, on the database clock): the submit and poll jobs ask it before each attempt,
 * and past the deadline it ends the solve FAILED with {@link EngineSettings#DEADLINE_EXCEEDED},
 * thrown as a dead job. A solve well within its deadline by the engine's clock (the database's, see
 * {@link DatabaseClock}) costs no statement; near or past it, the database decides (a requeued
 * solve, whose life restarted at the requeue, always asks it).
 */
public final class SolveDeadline {

  private static final Logger log = LoggerFactory.getLogger(SolveDeadline.class);

  private final SolveRepository repository;
  private final EngineSettings settings;
  private final EngineEvents events;
  private final Clock clock;

  /** Closer than this to the deadline by the engine's clock, the database is asked. */
  static final Duration MARGIN = Duration.ofSeconds(5);

  public SolveDeadline(
      SolveRepository repository, EngineSettings settings, EngineEvents events, Clock clock) {
    this.repository = repository;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Returns when the solve is within its deadline; otherwise fails it, runs {@code onFailed} (the
   * caller's slot policy) and throws.
   *
   * @throws PermanentSolveException when this call failed the solve
   */
  public void enforce(Solve solve, Runnable onFailed) {
    if (solve.createdAt() != null
        && solve
            .createdAt()
            .plus(settings.solveDeadline())
            .minus(MARGIN)
            .isAfter(clock.instant())) {
      return;
    }
    if (!repository.failIfPastDeadline(
        solve.id(),
        settings.solveDeadline(),
        EngineSettings.DEADLINE_EXCEEDED,
        ErrorClass.DEADLINE)) {
      return;
    }
    onFailed.run();
    events.error(EngineSettings.DEADLINE_EXCEEDED, ErrorClass.DEADLINE);
    log.warn(
        "Solve {} ({}) FAILED: {} (no outcome within captchaai.solve-deadline={})",
        solve.businessKey(),
        solve.id(),
        EngineSettings.DEADLINE_EXCEEDED,
        settings.solveDeadline());
    throw new PermanentSolveException(
        solve.id(), EngineSettings.DEADLINE_EXCEEDED, ErrorClass.DEADLINE);
  }
}
