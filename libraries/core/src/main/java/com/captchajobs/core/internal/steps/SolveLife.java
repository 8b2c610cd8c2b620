package com.captchajobs.core.internal.steps;

import com.captchajobs.core.internal.engine.PollJob;
import com.captchajobs.core.internal.engine.PollJobRequest;
import com.captchajobs.core.internal.engine.PushedPollJob;
import com.captchajobs.core.internal.engine.PushedPollRequest;
import com.captchajobs.core.internal.engine.SubmitJob;
import com.captchajobs.core.internal.engine.SubmitJobRequest;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.notify.PushNotice;
import com.captchajobs.core.internal.retry.PermanentErrorRetryFilter;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of a solve on a worker, the one owner the jobs call: the submit job, the poll job and
 * the fetch a push rings for hand their request here, and this makes the step ({@link SubmitStep},
 * {@link PollStep}, which leave every outcome to {@link TaskOutcomes} and every freed slot to
 * {@link SlotHandoff}) and goes on with what the step leaves to the running job. So the loop of a
 * solve is a call graph: job, life, step, outcome, hand-off, and back to the life with the slot the
 * hand-off kept for the running job.
 *
 * <p>A running job goes on with more work in its own thread (step 5 of "How a solve moves" in
 * docs/architecture.md): a submit job makes its solve's first poll when that is due within the poll
 * lead, and a job whose step freed a slot (a token found, its own solve parked) submits the solve
 * that slot was handed to, makes that one's first poll, and so on with the slot that poll frees.
 * The next in.php then follows within milliseconds instead of after JobRunr fetched a job for it,
 * which on a busy node takes seconds.
 *
 * <p>A carried solve's recorded job is the running one until its task id is stored (for a solve
 * carried by a fetch on the worker's own executor, the worker's JobRunr server). Its trouble never
 * fails the running job, whose outcome stays its own solve's: the carried solve gets a job of its
 * own that goes on from where it stands (a submit or poll retried after a pause like JobRunr's
 * first retry, or its permanent failure reported as a dead job).
 */
public final class SolveLife implements PollJob.Runs, PushedPollJob.Runs, SubmitJob.Runs {

  private static final Logger log = LoggerFactory.getLogger(SolveLife.class);

  /** The step name of the job that reports a carried solve's permanent failure. */
  private static final String FAILURE_REPORT = "failed";

  private final SubmitStep submitStep;
  private final PollStep pollStep;
  private final SolveRepository repository;
  private final SolveTransitions transitions;
  private final SolveJobs jobs;
  private final Clock clock;
  private final Supplier<UUID> serverId;

  /**
   * @param serverId this worker's JobRunr server (null until it started): the carrier recorded on a
   *     solve that a fetch on the worker's own executor submits, so that the repair pass takes it
   *     back like a running job's when the worker dies
   */
  public SolveLife(
      SubmitStep submitStep,
      PollStep pollStep,
      SolveRepository repository,
      SolveTransitions transitions,
      SolveJobs jobs,
      Clock clock,
      Supplier<UUID> serverId) {
    this.submitStep = submitStep;
    this.pollStep = pollStep;
    this.repository = repository;
    this.transitions = transitions;
    this.jobs = jobs;
    this.clock = clock;
    this.serverId = serverId;
  }

  /**
   * A submit job's run: its own solve's submit step (whose trouble is the job's, retried or failed
   * by JobRunr), then what that step leaves to the running job {@code runningJob}.
   */
  @Override
  public void submitJob(SubmitJobRequest request, UUID runningJob) throws InterruptedException {
    Step step =
        submitStep.submit(request.solveId(), request.slotFreedAtEpochMilli(), runningJob, false);
    goOn(step, runningJob).endJob();
  }

  /** A poll job's run: its poll, then the slot its token freed for a waiting solve. */
  @Override
  public void pollJob(PollJobRequest request, UUID runningJob) throws InterruptedException {
    goOn(pollStep.poll(request, runningJob), runningJob).endJob();
  }

  /**
   * The run of the fetch a push rang for: its call, then, like a poll job, the slot its token freed
   * for a waiting solve, submitted in this job's thread rather than by a submit job of its own.
   */
  @Override
  public void pushedPollJob(PushedPollRequest request, UUID runningJob)
      throws InterruptedException {
    goOn(pollStep.pollPushed(request, runningJob), runningJob).endJob();
  }

  /** The call a push rang for, outside a job's run: a freed slot gets a submit job. */
  @Override
  public Step pollPushed(PushedPollRequest request) throws InterruptedException {
    return pollStep.pollPushed(request, null);
  }

  /**
   * The call a push rang for, made on a worker's own executor at the notice's instant ({@code
   * push.PushedFetches}), outside JobRunr's queue, by the one worker whose claim wins. With {@code
   * mayCarry}, a slot its token frees may be handed to a waiting solve whose in.php this thread
   * then makes, recorded as carried by this worker's JobRunr server; its first poll is a job of its
   * own. Otherwise a freed slot gets a submit job. A permanent failure is reported by a job that
   * fails with it, as for a carried solve. Returns when to try again (the task's last call was
   * answered less than 5 s ago).
   */
  public Optional<Instant> fetchPushed(PushNotice notice, boolean mayCarry)
      throws InterruptedException {
    PollStep.PushedCall call = pollStep.pollPushed(notice, mayCarry ? serverId.get() : null);
    if (call.step() instanceof Step.Failed failed) {
      detach(notice.solveId(), failed, () -> {});
    } else if (call.step() instanceof Step.Carry carry) {
      submitCarried(carry.handoff(), null);
    }
    return Optional.ofNullable(call.tryAgainAt());
  }

  /** The submit step outside a job: the first poll is a job of its own. */
  @Override
  public void submit(UUID solveId, long slotFreedAtEpochMilli) {
    submitStep.submit(solveId, slotFreedAtEpochMilli, null, false).endJob();
  }

  /** The poll step outside a job's run, carried by {@code carrier} (null: by none). */
  @Override
  public Step poll(PollJobRequest request, UUID carrier) throws InterruptedException {
    return pollStep.poll(request, carrier);
  }

  /** The job that reports the permanent failure of a solve that failed while carried. */
  static UUID failureReportJob(UUID solveId) {
    return SolveJobs.jobId(solveId, FAILURE_REPORT);
  }

  /**
   * Goes on, in the running job {@code runningJob}, from its own solve's step: makes the first poll
   * the step left to it, then carries on with a slot handed to it. Returns the own solve's last
   * step, for the job's edge; the own solve's trouble is the job's.
   */
  private Step goOn(Step own, UUID runningJob) throws InterruptedException {
    Step step = own;
    if (step instanceof Step.FirstPoll first) {
      step = pollStep.poll(request(first), runningJob);
    }
    if (step instanceof Step.Carry carry) {
      carryOn(carry.handoff(), runningJob);
    }
    return step;
  }

  /**
   * Carries on with the solve a slot was just handed to (recorded as carried by {@code runningJob},
   * its submit lock taken: see {@link SlotHandoff#releaseAndTakeOne}) until a solve's next step is
   * a job of its own. Never throws for a carried solve's trouble.
   */
  private void carryOn(FleetGate.Handoff handoff, UUID runningJob) throws InterruptedException {
    FleetGate.Handoff h = handoff;
    while (h != null) {
      FleetGate.Handoff carried = h;
      Step step = submitCarried(carried, runningJob);
      if (step == null) {
        return;
      }
      if (step instanceof Step.FirstPoll first) {
        PollJobRequest poll = request(first);
        try {
          step = pollStep.poll(poll, runningJob);
        } catch (InterruptedException e) { // the node is stopping
          detach(carried.solveId(), false, e.toString(), () -> retryPoll(poll, Duration.ZERO));
          Thread.currentThread().interrupt();
          throw e;
        } catch (RuntimeException e) {
          detach(carried.solveId(), false, e.toString(), () -> retryPoll(poll, retryPause()));
          return;
        }
        if (isTrouble(step)) {
          detach(carried.solveId(), step, () -> retryPoll(poll, retryPause()));
          return;
        }
      }
      h = step instanceof Step.Carry carry ? carry.handoff() : null;
    }
  }

  /**
   * Submits a solve handed to the running job {@code runningJob} (null: to a fetch on the worker's
   * executor, which makes no first poll); null when its trouble went to a job of its own.
   */
  private Step submitCarried(FleetGate.Handoff carried, UUID runningJob) {
    Step step;
    try {
      step = submitStep.submit(carried.solveId(), carried.freedAtEpochMilli(), runningJob, true);
    } catch (RuntimeException e) {
      detach(carried.solveId(), false, e.toString(), () -> retrySubmit(carried));
      return null;
    }
    if (isTrouble(step)) {
      detach(carried.solveId(), step, () -> retrySubmit(carried));
      return null;
    }
    return step;
  }

  private static boolean isTrouble(Step step) {
    return step instanceof Step.Failed || step instanceof Step.Retry;
  }

  private void detach(UUID solveId, Step trouble, Runnable retry) {
    String cause = trouble instanceof Step.Retry r ? r.cause().toString() : trouble.toString();
    detach(solveId, trouble instanceof Step.Failed, cause, retry);
  }

  /**
   * Gives a carried solve whose step failed a job of its own: a permanent failure (already
   * recorded) is reported by a job that fails with it, anything else retried by {@code retry}. If
   * even that cannot be stored, the repair pass finds the solve once the running job has ended.
   */
  private void detach(UUID solveId, boolean failed, String cause, Runnable retry) {
    try {
      if (failed) {
        UUID reportJob = failureReportJob(solveId);
        Solve solve = repository.find(solveId).orElseThrow();
        transitions.setJob(solveId, reportJob);
        jobs.submit(reportJob, solveId, solve.type(), solve.businessKey(), 0);
      } else {
        log.info(
            "Solve {}: a step carried by another job failed ({}), retrying in a job of its own",
            solveId,
            cause);
        retry.run();
      }
    } catch (RuntimeException again) {
      log.warn(
          "Solve {}: no job of its own after {} ({}); the repair pass will give it one",
          solveId,
          cause,
          again.toString());
    }
  }

  private void retrySubmit(FleetGate.Handoff h) {
    UUID jobId = UUID.randomUUID(); // stored before the job exists, like every job id
    transitions.setJob(h.solveId(), jobId);
    jobs.submitLater(jobId, h.solveId(), h.type(), h.businessKey(), retryPause());
  }

  private void retryPoll(PollJobRequest poll, Duration pause) {
    Solve solve = repository.find(poll.solveId()).orElseThrow();
    UUID jobId = UUID.randomUUID();
    transitions.setJob(solve.id(), jobId);
    Instant at = clock.instant().plus(pause);
    Instant intended = Instant.ofEpochMilli(poll.intendedAtEpochMilli());
    jobs.poll(jobId, solve, poll.submitNo(), poll.pollNo(), at.isAfter(intended) ? at : intended);
  }

  /** Like JobRunr's first retry of a failed job of ours. */
  private static Duration retryPause() {
    return PermanentErrorRetryFilter.firstRetryWait();
  }

  private static PollJobRequest request(Step.FirstPoll first) {
    return new PollJobRequest(
        first.solveId(), first.submitNo(), 1, first.intendedAt().toEpochMilli());
  }
}
