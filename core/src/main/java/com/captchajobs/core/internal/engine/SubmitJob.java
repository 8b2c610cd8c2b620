package com.captchajobs.core.internal.engine;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.CaptchaAiTransportException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.config.EngineEvents;
import com.captchajobs.core.internal.config.EngineSettings;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PingbackUrls;
import com.captchajobs.core.internal.provider.PlanCheck;
import com.captchajobs.core.internal.retry.PermanentErrorRetryFilter;
import com.captchajobs.core.internal.retry.PermanentSolveException;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveState;
import com.captchajobs.core.internal.time.FirstPollWaits;
import com.captchajobs.core.internal.time.SolveDeadline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.jobrunr.jobs.context.JobContext;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.server.runner.ThreadLocalJobContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The submit job (see "How a solve moves" in docs/architecture.md): resumes a stored task id, or
 * takes a slot of the fleet gate and calls in.php, committing the task id before anything else,
 * then schedules the first poll. Safe to run any number of times for one solve: a rerun never
 * submits a task twice.
 *
 * <p>When the first poll is due within the poll lead (a poll job would be enqueued at once and wait
 * in its thread anyway), this job makes that first poll itself, after the task id was committed,
 * instead of creating a separate job: one JobRunr job less per solve. The solve's recorded job is
 * then this one, so a crash meanwhile makes JobRunr rerun it, and the rerun resumes the stored
 * task.
 *
 * <p>When that poll (or a poll job's) finds a token and a solve waits for the freed slot, the job
 * carries on with that solve in the same thread ({@link #carryOn}): its in.php call follows within
 * milliseconds instead of after JobRunr fetched a job for it, which on a busy node takes seconds. A
 * job that parks its own solve carries on with a slot it hands to another in the same way. The
 * carried solve's recorded job is the running one until its task id is stored; trouble on the way
 * gives it a job of its own, which retries or reports the failure as JobRunr would have.
 */
public class SubmitJob implements JobRequestHandler<SubmitJobRequest> {

  private static final Logger log = LoggerFactory.getLogger(SubmitJob.class);

  /** Longer than one in.php call can take (the client's call timeout) with a margin. */
  public static final Duration SUBMIT_LOCK = CaptchaAiClient.DEFAULT_CALL_TIMEOUT.plusSeconds(30);

  private final SolveRepository repository;
  private final FleetGate gate;
  private final SlotHandoff handoff;
  private final Breaker breaker;
  private final CaptchaAiClient client;
  private final SolveJobs jobs;
  private final PollJob pollJob;
  private final FirstPollWaits firstPollWaits;
  private final PlanCheck planCheck;
  private final EngineSettings settings;
  private final EngineEvents events;
  private final Clock clock;
  private final SolveDeadline deadline;
  private volatile PingbackUrls pingbacks;

  public SubmitJob(
      SolveRepository repository,
      FleetGate gate,
      SlotHandoff handoff,
      Breaker breaker,
      CaptchaAiClient client,
      SolveJobs jobs,
      PollJob pollJob,
      FirstPollWaits firstPollWaits,
      PlanCheck planCheck,
      EngineSettings settings,
      EngineEvents events,
      Clock clock) {
    this.repository = repository;
    this.gate = gate;
    this.handoff = handoff;
    this.breaker = breaker;
    this.client = client;
    this.jobs = jobs;
    this.pollJob = pollJob;
    this.firstPollWaits = firstPollWaits;
    this.planCheck = planCheck;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.deadline = new SolveDeadline(repository, settings, events, clock);
  }

  @Override
  public void run(SubmitJobRequest request) throws InterruptedException {
    JobContext context = ThreadLocalJobContext.getJobContext();
    UUID runningJob = context == null ? null : context.getJobId();
    // The job's own solve: its trouble is this job's, retried or failed by JobRunr.
    Next next = submit(request.solveId(), request.slotFreedAtEpochMilli(), runningJob, false);
    if (next.firstPoll() != null) {
      next = Next.carrying(pollJob.poll(next.firstPoll(), runningJob));
    }
    if (next.handoff() != null) {
      carryOn(next.handoff(), runningJob);
    }
  }

  /** Moves the solve one step towards a submitted task; see the class comment. */
  public void submit(UUID solveId, long slotFreedAtEpochMilli) {
    submit(solveId, slotFreedAtEpochMilli, null, false); // no running job: the first poll is a job
  }

  /**
   * What the running job does after a submit step: the solve's first poll, or the submit of a solve
   * it handed a slot to; neither when both are for jobs of their own.
   */
  private record Next(PollJobRequest firstPoll, FleetGate.Handoff handoff) {
    static final Next NOTHING = new Next(null, null);

    static Next carrying(Optional<FleetGate.Handoff> handoff) {
      return new Next(null, handoff.orElse(null));
    }
  }

  /**
   * Carries on, in the running job {@code runningJob}, with the solve a slot was just handed to
   * (recorded as carried by it, its submit lock taken: see {@link SlotHandoff#releaseAndTakeOne}):
   * submits it, makes its first poll when that is due within the poll lead, and goes on in the same
   * way with the slot that poll frees, until a solve's next step is a job of its own. Never throws
   * for a carried solve's trouble: the solve gets a job that goes on from where it stands (a submit
   * or poll retried after a pause like JobRunr's first retry, or its permanent failure reported as
   * a dead job), so the running job's outcome stays its own solve's.
   */
  public void carryOn(FleetGate.Handoff handoff, UUID runningJob) throws InterruptedException {
    FleetGate.Handoff h = handoff;
    while (h != null) {
      FleetGate.Handoff carried = h;
      Next next;
      try {
        next = submit(carried.solveId(), carried.freedAtEpochMilli(), runningJob, true);
      } catch (RuntimeException e) {
        detach(carried.solveId(), e, () -> retrySubmit(carried));
        return;
      }
      if (next.firstPoll() != null) {
        PollJobRequest poll = next.firstPoll();
        try {
          next = Next.carrying(pollJob.poll(poll, runningJob));
        } catch (InterruptedException e) {
          detach(carried.solveId(), e, () -> retryPoll(poll, Duration.ZERO)); // node stopping
          Thread.currentThread().interrupt();
          throw e;
        } catch (RuntimeException e) {
          detach(carried.solveId(), e, () -> retryPoll(poll, retryPause()));
          return;
        }
      }
      h = next.handoff();
    }
  }

  /**
   * Gives a carried solve whose step failed a job of its own: a permanent failure (already
   * recorded) is reported by a job that fails with it, anything else retried by {@code retry}. If
   * even that cannot be stored, the repair pass finds the solve once the running job has ended.
   */
  private void detach(UUID solveId, Exception e, Runnable retry) {
    try {
      if (e instanceof PermanentSolveException) {
        UUID reportJob = SolveJobs.jobId(solveId, FAILURE_REPORT);
        Solve solve = repository.find(solveId).orElseThrow();
        repository.setJob(solveId, reportJob);
        jobs.submit(reportJob, solveId, solve.type(), solve.businessKey(), 0);
      } else {
        log.info(
            "Solve {}: a step carried by another job failed ({}), retrying in a job of its own",
            solveId,
            e.toString());
        retry.run();
      }
    } catch (RuntimeException again) {
      log.warn(
          "Solve {}: no job of its own after {} ({}); the repair pass will give it one",
          solveId,
          e.toString(),
          again.toString());
    }
  }

  /** The step name of the job that reports a carried solve's permanent failure. */
  private static final String FAILURE_REPORT = "failed";

  private void retrySubmit(FleetGate.Handoff h) {
    UUID jobId = UUID.randomUUID(); // stored before the job exists, like every job id
    repository.setJob(h.solveId(), jobId);
    jobs.submitLater(jobId, h.solveId(), h.type(), h.businessKey(), retryPause());
  }

  private void retryPoll(PollJobRequest poll, Duration pause) {
    Solve solve = repository.find(poll.solveId()).orElseThrow();
    UUID jobId = UUID.randomUUID();
    repository.setJob(solve.id(), jobId);
    Instant at =
        max(clock.instant().plus(pause), Instant.ofEpochMilli(poll.intendedAtEpochMilli()));
    jobs.poll(jobId, solve, poll.submitNo(), poll.pollNo(), at);
  }

  /** Like JobRunr's first retry of a failed job of ours. */
  private static Duration retryPause() {
    return PermanentErrorRetryFilter.firstRetryWait();
  }

  /**
   * Moves the solve one step; returns the first poll when the caller, the running job {@code
   * runningJob}, is to make it itself, or a solve it handed a slot to while parking this one. A
   * solve {@code handed} a slot this instant by the caller has its submit lock and a fresh lease.
   */
  private Next submit(UUID solveId, long slotFreedAtEpochMilli, UUID runningJob, boolean handed) {
    Solve solve = repository.find(solveId).orElse(null);
    if (solve == null || solve.status().isFinal()) {
      reportFailureOfCarried(solve, runningJob);
      return Next.NOTHING;
    }
    failIfPastDeadline(solve);
    Instant now = clock.instant();
    if (solve.taskId() != null) {
      // However old, a stored task is asked before it is given up: its answer may be waiting.
      // The poll job decides: an answer young enough is used; not ready past the solve timeout,
      // gone, or an answer possibly past its use leads to a fresh submission.
      resume(solve, now);
      return Next.NOTHING;
    }
    Optional<Breaker.State> open = breaker.openState();
    if (open.isPresent()) {
      handoff.release(solveId);
      fail(solve, open.get().errorCode(), ErrorClass.CREDENTIAL);
    }
    if (!handed && !repository.lockForSubmit(solveId, SUBMIT_LOCK)) {
      // Another run of this solve's submit job is at it. If the solve holds a slot, that run may
      // be just leaving after parking it: try again shortly rather than leave the slot idle.
      if (gate.holds(solveId)) {
        throw new SubmitBusyException(solveId);
      }
      return Next.NOTHING;
    }
    boolean unlock = true;
    try {
      if (!handed && !gate.confirm(solveId)) {
        repository.markWaiting(solveId, now);
        SlotHandoff.Parking parking = handoff.handOffParking(solveId, runningJob);
        if (!parking.selfGotSlot() || !gate.confirm(solveId)) {
          log.info("Solve {} ({}) WAITING_FOR_THREAD", solve.businessKey(), solveId);
          // parked: a freed slot will be handed to it; this job may carry on with another solve
          return Next.carrying(parking.kept());
        }
        slotFreedAtEpochMilli = 0; // got a slot at once: not a hand-off
      }
      Optional<PollJobRequest> firstPoll = callInPhp(solve, slotFreedAtEpochMilli, runningJob);
      unlock = false; // storing the task id (or parking for a thread) released the lock
      return new Next(firstPoll.orElse(null), null);
    } catch (TaskIdNotStoredException e) {
      unlock = false; // the submit lock stays until the hold ends: no new in.php call before
      throw e;
    } finally {
      if (unlock) {
        repository.unlockSubmit(solveId);
      }
    }
  }

  /**
   * A solve that failed while another job carried it is reported by a job of its own, which fails
   * with the solve's code so that it shows among the dead jobs like any other permanent failure.
   */
  private void reportFailureOfCarried(Solve solve, UUID runningJob) {
    if (solve != null
        && solve.status() == SolveState.FAILED
        && runningJob != null
        // only a carried solve's detach creates a job of this id
        && runningJob.equals(SolveJobs.jobId(solve.id(), FAILURE_REPORT))) {
      throw new PermanentSolveException(solve.id(), solve.errorCode(), solve.errorClass());
    }
  }

  /**
   * Ends a solve whose deadline passed as a dead job. Its slot is given back only when no task of
   * it can be in flight; a submitted task keeps it until its lease ends.
   */
  private void failIfPastDeadline(Solve solve) {
    deadline.enforce(
        solve,
        () -> {
          if (solve.taskId() == null) {
            handoff.release(solve.id());
          }
        });
  }

  /**
   * In.php created a task whose id could not be stored: treated as a lost reply. Retried by
   * JobRunr; the solve's submit lock and a phantom slot stay until the lost-submit hold ends.
   */
  public static final class TaskIdNotStoredException extends RuntimeException {
    public TaskIdNotStoredException(UUID solveId, Throwable cause) {
      super("the task id of solve " + solveId + " could not be stored", cause);
    }

    /** For JobRunr, which rebuilds a failed job's exception from its stored message. */
    public TaskIdNotStoredException(String message) {
      super(message);
    }
  }

  /** Retried by JobRunr: another run of the same solve held its submit lock. */
  public static final class SubmitBusyException extends RuntimeException {
    public SubmitBusyException(UUID solveId) {
      super("another run is submitting solve " + solveId);
    }

    /** For JobRunr, which rebuilds a failed job's exception from its stored message. */
    public SubmitBusyException(String message) {
      super(message);
    }
  }

  /**
   * Polls a stored task again: at its first poll's time when it was never polled, else 5 s after
   * the last recorded call (the provider allows one poll per task every 5 s), at once when that is
   * past. The last call was timed by whichever node made it, so a clock ahead of this one's delays
   * the poll by at most the poll interval.
   */
  private void resume(Solve solve, Instant now) {
    int submitNo = solve.submits();
    Optional<SolveRepository.LastPoll> last = repository.lastPoll(solve.id(), submitNo);
    Instant intended =
        last.map(
                p ->
                    max(
                        now,
                        min(
                            PollJob.nextCallAfter(p.calledAt(), settings),
                            now.plus(settings.pollInterval()))))
            .orElseGet(
                () -> max(now, solve.submittedAt().plus(firstPollWaits.waitFor(solve.type()))));
    UUID pollJobId = UUID.randomUUID(); // stored before the job exists, like every job id
    repository.setJob(solve.id(), pollJobId);
    jobs.poll(pollJobId, solve, submitNo, last.map(p -> p.pollNo()).orElse(0) + 1, intended);
    events.submitted(solve.type(), true);
    log.info("Solve {} ({}) resumed task {}", solve.businessKey(), solve.id(), solve.taskId());
  }

  /**
   * Calls in.php and commits the task id; then either schedules the first poll job or, when the
   * first poll is due within the poll lead and {@code runningJob} is known, returns that poll for
   * the running job to make itself.
   */
  private Optional<PollJobRequest> callInPhp(
      Solve solve, long slotFreedAtEpochMilli, UUID runningJob) {
    // Known before in.php, so that nothing stands between its answer and the task id's commit.
    int submitNo = solve.submits() + 1;
    PingbackUrls push = pingbacks;
    String pingbackUrl = push == null ? null : push.urlFor(solve.id(), submitNo);
    Duration firstWait = firstPollWaits.waitFor(solve.type());
    if (pingbackUrl != null) {
      firstWait = fallbackWait(solve, firstWait);
    }
    boolean pollHere = runningJob != null && firstWait.compareTo(settings.pollLead()) <= 0;
    String taskId;
    try {
      taskId = client.submit(solve.task(), pingbackUrl);
    } catch (CaptchaAiException e) {
      onSubmitError(solve, e);
      return Optional.empty();
    }
    Instant at = clock.instant();
    Instant freedAt =
        slotFreedAtEpochMilli > 0 ? Instant.ofEpochMilli(slotFreedAtEpochMilli) : null;
    // The task id before anything else, with the job that makes the first poll (this one, or the
    // poll job created right after) and the hand-off's record in the same statement.
    storeTaskId(
        solve,
        taskId,
        at,
        pollHere ? runningJob : SolveJobs.pollJobId(solve.id(), submitNo, 1),
        freedAt);
    Instant firstPoll = at.plus(firstWait);
    log.info("Solve {} ({}) SUBMITTED as task {}", solve.businessKey(), solve.id(), taskId);
    events.submitted(solve.type(), false);
    if (freedAt != null) {
      events.handedOff(Duration.between(freedAt, at));
    }
    PollJobRequest first = new PollJobRequest(solve.id(), submitNo, 1, firstPoll.toEpochMilli());
    if (pollHere) {
      return Optional.of(first);
    }
    jobs.poll(solve, first);
    return Optional.empty();
  }

  /**
   * With pushed answers, the first poll is only the fallback for a push that got lost: near the
   * type's documented upper solve time, so that most solves are pushed before and need no poll, but
   * never more than one poll interval after the first poll polling alone would make, so that a lost
   * push costs at most one poll step.
   */
  private Duration fallbackWait(Solve solve, Duration firstWait) {
    EngineSettings.SolveTimes times = EngineSettings.documentedSolveTimes().get(solve.type());
    Duration latest = firstWait.plus(settings.pollInterval());
    Duration upper = times == null ? latest : times.max();
    Duration wait = upper.compareTo(latest) < 0 ? upper : latest;
    return wait.compareTo(firstWait) > 0 ? wait : firstWait;
  }

  /**
   * Sends every in.php with a pingback URL of {@code pingbacks} (answers pushed by the provider),
   * with polling as the fallback; null (the default) polls only.
   */
  public void pushTo(PingbackUrls pingbacks) {
    this.pingbacks = pingbacks;
  }

  /** Attempts at storing a task id in-process, and the pause before the first retry (doubled). */
  static final int STORE_ATTEMPTS = 4;

  static final Duration STORE_RETRY_PAUSE = Duration.ofMillis(250);

  private void storeTaskId(
      Solve solve, String taskId, Instant at, UUID pollJobId, Instant slotFreedAt) {
    RuntimeException last = null;
    long pause = STORE_RETRY_PAUSE.toMillis();
    for (int attempt = 1; attempt <= STORE_ATTEMPTS; attempt++) {
      try {
        repository.markSubmitted(solve.id(), taskId, at, pollJobId, slotFreedAt);
        return;
      } catch (RuntimeException e) {
        last = e;
        log.warn(
            "Solve {} ({}) task {}: storing the task id failed (attempt {} of {}): {}",
            solve.businessKey(),
            solve.id(),
            taskId,
            attempt,
            STORE_ATTEMPTS,
            e.toString());
      }
      if (attempt < STORE_ATTEMPTS) {
        try {
          Thread.sleep(pause);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          break;
        }
        pause *= 2;
      }
    }
    // As if the answer had been lost: the task exists at the provider but not in our table.
    log.error(
        "Solve {} ({}) task {} was created by in.php but its id could not be stored: treated as a"
            + " lost reply, slot held and no new submission for {}",
        solve.businessKey(),
        solve.id(),
        taskId,
        settings.lostSubmitHold());
    try {
      gate.holdAfterLostSubmit(solve.id(), settings.lostSubmitHold());
      repository.holdAfterLostTaskId(solve.id(), settings.lostSubmitHold(), LOST_TASK_ID);
    } catch (RuntimeException e) {
      // The submit lock taken before in.php still stands for its own span.
      log.warn("Solve {} ({}): could not record the hold: {}", solve.businessKey(), solve.id(), e);
    }
    events.error(LOST_TASK_ID, ErrorClass.TRANSIENT);
    throw new TaskIdNotStoredException(solve.id(), last);
  }

  /** The code recorded when in.php answered but the task id could not be stored. */
  public static final String LOST_TASK_ID = "TASK_ID_NOT_STORED";

  private void onSubmitError(Solve solve, CaptchaAiException e) {
    Instant now = clock.instant();
    ErrorClass errorClass = e.errorClass();
    events.error(e.errorCode(), errorClass);
    switch (e.errorClass()) {
      case THREADS -> {
        // Not a failure of the solve: give the slot back and wait for a thread, no retry spent.
        long jitter =
            ThreadLocalRandom.current().nextLong(settings.threadWait().toMillis() / 4 + 1);
        repository.waitForThread(
            solve.id(), settings.threadWait().plusMillis(jitter), e.errorCode());
        gate.release(solve.id());
        log.info(
            "Solve {} ({}) WAITING_FOR_THREAD: provider answered {}",
            solve.businessKey(),
            solve.id(),
            e.errorCode());
        planCheck.afterThreadsError(e.errorCode());
      }
      case CREDENTIAL -> {
        breaker.open(e.errorCode(), "in.php answered " + e.errorCode());
        log.error(
            "Breaker OPEN: CaptchaAI rejected the API key ({}); no node submits until an"
                + " operator closes it",
            e.errorCode());
        handoff.release(solve.id());
        fail(solve, e.errorCode(), errorClass);
      }
      default -> {
        if (e.permanent()) {
          handoff.release(solve.id());
          fail(solve, e.errorCode(), errorClass);
        }
        // Transient: let JobRunr retry this job with backoff. When the answer was lost on the way
        // (not a code from the provider), a task may exist anyway: its slot stays taken a while.
        repository.markRetrying(solve.id(), e.errorCode(), errorClass, now);
        if (e instanceof CaptchaAiTransportException) {
          gate.holdAfterLostSubmit(solve.id(), settings.lostSubmitHold());
        }
        handoff.release(solve.id());
        log.warn(
            "Solve {} ({}) in.php failed with {} ({}), will retry",
            solve.businessKey(),
            solve.id(),
            e.errorCode(),
            errorClass);
        throw e;
      }
    }
  }

  private void fail(Solve solve, String code, ErrorClass errorClass) {
    repository.markFailed(solve.id(), code, errorClass, clock.instant());
    log.warn("Solve {} ({}) FAILED: {} ({})", solve.businessKey(), solve.id(), code, errorClass);
    throw new PermanentSolveException(solve.id(), code, errorClass);
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
