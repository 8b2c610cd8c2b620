package com.captchajobs.core.internal.retry;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.gate.FleetGate;
import java.time.Instant;
import java.util.UUID;

/**
 * What one step of a job with a solve (a submit, a poll, a pushed answer) came to, and so what the
 * job does next. Steps return it instead of throwing; only the job's edge turns it into JobRunr's
 * terms ({@link #endJob}): a failed solve ends the job FAILED without a retry ({@link
 * PermanentSolveException}, read by {@link PermanentErrorRetryFilter}), a transient trouble lets
 * JobRunr retry the job. Anything else a step throws is unexpected (a database outage) and retried
 * like a transient trouble.
 */
public sealed interface Step {

  /** Nothing more for this job to do with the solve. */
  Step DONE = new Done();

  /**
   * The solve moved on or waits: its next step is a job of its own (a poll scheduled, a slot to be
   * handed to it), or another job's.
   */
  record Done() implements Step {}

  /**
   * A slot was handed to the waiting solve of {@code handoff} for this job to submit itself, in its
   * own thread (the hand-off recorded this job as the solve's job and took its submit lock).
   */
  record Carry(FleetGate.Handoff handoff) implements Step {}

  /**
   * The task of the solve's submission {@code submitNo} is committed and its first poll, due at
   * {@code intendedAt} (within the poll lead), is this job's to make.
   */
  record FirstPoll(UUID solveId, int submitNo, Instant intendedAt) implements Step {}

  /** The solve failed for good (recorded, its slot freed or held): the job ends FAILED. */
  record Failed(UUID solveId, String code, ErrorClass errorClass) implements Step {

    /** What the job throws at its edge. */
    public PermanentSolveException exception() {
      return new PermanentSolveException(solveId, code, errorClass);
    }
  }

  /** A transient trouble (recorded): JobRunr retries the job, failing now with {@code cause}. */
  record Retry(RuntimeException cause) implements Step {}

  /**
   * Ends the job as this step says, at its edge: throws for {@link Failed} (no retry) and {@link
   * Retry} (a retry after JobRunr's backoff), returns for anything else.
   */
  default void endJob() {
    if (this instanceof Failed failed) {
      throw failed.exception();
    }
    if (this instanceof Retry retry) {
      throw retry.cause();
    }
  }
}
