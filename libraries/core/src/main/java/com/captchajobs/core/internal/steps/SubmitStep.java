package com.captchajobs.core.internal.steps;

import static com.captchajobs.core.internal.providers.CallPacing.latest;

import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.engine.PollJobRequest;
import com.captchajobs.core.internal.engine.SubmitJob;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.gate.ProviderLanes;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PingbackUrls;
import com.captchajobs.core.internal.providers.CallPacing;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.internal.retry.InProcessRetry;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.store.SolveTransitions.Submitted;
import com.captchajobs.core.internal.store.TaskCalls;
import com.captchajobs.core.internal.time.FirstPollWaits;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.settings.SolveTimes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The submit step of a solve (see "How a solve moves" in docs/architecture.md), made by the submit
 * job through {@link SolveLife}: resumes a stored task id, or confirms the solve's slot of the
 * fleet gate and calls in.php, committing the task id before anything else, then schedules the
 * first poll. Safe to run any number of times for one solve: a rerun never submits a task twice.
 * What an in.php error does is {@link SubmitOutcomes}' to decide.
 *
 * <p>When the first poll is due within the poll lead (a poll job would be enqueued at once and wait
 * in its thread anyway), the step returns that first poll for the running job to make itself, after
 * the task id was committed, instead of creating a separate job: one JobRunr job less per solve.
 * The solve's recorded job is then the running one, so a crash meanwhile makes JobRunr rerun it,
 * and the rerun resumes the stored task. When that poll finds a token, or this step parks its
 * solve, a slot handed on may be carried on with in the running job's thread ({@link SolveLife}).
 */
public final class SubmitStep {

  private static final Logger log = LoggerFactory.getLogger(SubmitJob.class);

  /** Attempts at storing a task id in-process, and the pause before the first retry (doubled). */
  static final int STORE_ATTEMPTS = 4;

  static final Duration STORE_RETRY_PAUSE = Duration.ofMillis(250);

  private final SolveRepository repository;
  private final SolveTransitions transitions;
  private final FleetGate gate;
  private final SlotHandoff handoff;
  private final TaskOutcomes outcomes;
  private final SubmitOutcomes inPhp;
  private final Providers providers;
  private final SolveJobs jobs;
  private final FirstPollWaits firstPollWaits;
  private final SolveSettings settings;
  private final EngineListener events;
  private final Clock clock;
  private final PingbackUrls pingbacks;

  /**
   * @param pingbacks sends every in.php with a pingback URL (answers pushed by the provider), with
   *     polling as the fallback; null: polls only
   */
  public SubmitStep(
      SolveRepository repository,
      SolveTransitions transitions,
      FleetGate gate,
      SlotHandoff handoff,
      TaskOutcomes outcomes,
      Providers providers,
      SolveJobs jobs,
      FirstPollWaits firstPollWaits,
      SolveSettings settings,
      EngineListener events,
      Clock clock,
      PingbackUrls pingbacks) {
    this.repository = repository;
    this.transitions = transitions;
    this.gate = gate;
    this.handoff = handoff;
    this.outcomes = outcomes;
    this.providers = providers;
    this.jobs = jobs;
    this.firstPollWaits = firstPollWaits;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.pingbacks = pingbacks;
    this.inPhp = new SubmitOutcomes(outcomes, transitions, handoff, providers, settings, events);
  }

  /**
   * Moves the solve one step, for the running job {@code runningJob} (null outside a job): its
   * first poll when this job is to make it ({@link Step.FirstPoll}), or a solve it handed a slot to
   * while parking this one ({@link Step.Carry}). A solve {@code handed} a slot this instant by the
   * caller has its submit lock and a fresh lease.
   */
  Step submit(UUID solveId, long slotFreedAtEpochMilli, UUID runningJob, boolean handed) {
    Solve solve = repository.find(solveId).orElse(null);
    if (solve == null || solve.status().isFinal()) {
      return failureToReport(solve, runningJob);
    }
    Optional<Step> pastDeadline = outcomes.pastDeadline(solve);
    if (pastDeadline.isPresent()) {
      return pastDeadline.get();
    }
    Instant now = clock.instant();
    if (solve.taskId() != null) {
      // However old, a stored task is asked before it is given up: its answer may be waiting.
      // The poll job decides: an answer young enough is used; not ready past the solve timeout,
      // gone, or an answer possibly past its use leads to a fresh submission.
      resume(solve, now);
      return Step.DONE;
    }
    Optional<Breaker.State> open = providers.openEverywhere();
    if (open.isPresent()) {
      return outcomes.fail(solve, open.get().errorCode(), ErrorClass.CREDENTIAL);
    }
    if (!handed && !transitions.lockForSubmit(solveId, SlotHandoff.SUBMIT_LOCK)) {
      // Another run of this solve's submit job is at it. If the solve holds a slot, that run may
      // be just leaving after parking it: try again shortly rather than leave the slot idle.
      return gate.holds(solveId)
          ? new Step.Retry(new SubmitJob.SubmitBusyException(solveId))
          : Step.DONE;
    }
    boolean unlock = true;
    try {
      if (!handed && !gate.confirm(solveId)) {
        transitions.markWaiting(solveId);
        SlotHandoff.Parking parking = handoff.handOffParking(solveId, runningJob);
        if (!parking.selfGotSlot() || !gate.confirm(solveId)) {
          log.info("Solve {} ({}) WAITING_FOR_THREAD", solve.businessKey(), solveId);
          // parked: a freed slot will be handed to it; this job may carry on with another solve
          return parking.kept().<Step>map(Step.Carry::new).orElse(Step.DONE);
        }
        slotFreedAtEpochMilli = 0; // got a slot at once: not a hand-off
      }
      // in.php at the provider whose slot it holds (one read, only with providers beside it)
      solve = providers.hasOthers() ? solve.at(providers.slotOf(solveId)) : solve;
      Optional<Breaker.State> shut =
          providers.hasOthers()
              ? providers.get(solve.provider()).breaker().openState()
              : Optional.empty();
      // That provider's key was rejected, or a primary slot was taken before the primary was
      // judged down (or at enqueue): the gate hands it another provider's (a backup's).
      if (shut.isPresent()
          || providers.hasOthers()
              && ProviderLanes.PRIMARY.equals(solve.provider())
              && providers.primaryDown()) {
        String code = shut.map(Breaker.State::errorCode).orElse(solve.errorCode());
        transitions.waitForThread(solveId, Duration.ZERO, code);
        handoff.giveBack(solveId);
        handoff.handOff();
        return Step.DONE;
      }
      Step step = callInPhp(solve, slotFreedAtEpochMilli, runningJob);
      // Storing the task id, or an outcome, cleared the lock; after a lost task id it must stay
      // until the hold ends: no new in.php call before.
      unlock =
          step instanceof Step.Failed
              || step instanceof Step.Retry retry
                  && !(retry.cause() instanceof SubmitJob.TaskIdNotStoredException);
      return step;
    } finally {
      if (unlock) {
        transitions.unlockSubmit(solveId);
      }
    }
  }

  /**
   * A solve that failed while another job carried it is reported by a job of its own ({@link
   * SolveLife}), which fails with the solve's code so that it shows among the dead jobs like any
   * other permanent failure.
   */
  private static Step failureToReport(Solve solve, UUID runningJob) {
    if (solve != null
        && solve.status() == SolveStatus.FAILED
        && runningJob != null
        // only a carried solve's detach creates a job of this id
        && runningJob.equals(SolveLife.failureReportJob(solve.id()))) {
      return new Step.Failed(solve.id(), solve.errorCode(), solve.errorClass());
    }
    return Step.DONE;
  }

  /**
   * Polls a stored task again: at its first poll's time when it was never polled, else 5 s after
   * the last recorded call (the provider allows one poll per task every 5 s), at once when that is
   * past. The last call was timed by whichever node made it, so a clock ahead of this one's delays
   * the poll by at most the poll interval.
   */
  private void resume(Solve solve, Instant now) {
    int submitNo = solve.submits();
    Optional<TaskCalls.LastPoll> last = transitions.calls().lastPoll(solve.id(), submitNo);
    Instant intended =
        last.map(
                p ->
                    latest(
                        now,
                        earliest(
                            CallPacing.nextCallAfter(p.calledAt(), settings),
                            now.plus(settings.pollInterval()))))
            .orElseGet(
                () -> latest(now, solve.submittedAt().plus(firstPollWaits.waitFor(solve.type()))));
    UUID pollJobId = UUID.randomUUID(); // stored before the job exists, like every job id
    transitions.setJob(solve.id(), pollJobId);
    jobs.poll(pollJobId, solve, submitNo, last.map(p -> p.pollNo()).orElse(0) + 1, intended);
    events.submitted(solve.providerOrPrimary(), solve.type(), true);
    log.info("Solve {} ({}) resumed task {}", solve.businessKey(), solve.id(), solve.taskId());
  }

  /**
   * Calls in.php and commits the task id; then either schedules the first poll job or, when the
   * first poll is due within the poll lead plus one poll interval and {@code runningJob} is known,
   * returns that poll for the running job to make itself.
   */
  private Step callInPhp(Solve solve, long slotFreedAtEpochMilli, UUID runningJob) {
    // Known before in.php, so that nothing stands between its answer and the task id's commit.
    int submitNo = solve.submits() + 1;
    String pingbackUrl = pingbacks == null ? null : pingbacks.urlFor(solve.id(), submitNo);
    Duration firstWait = firstPollWaits.waitFor(solve.type());
    if (pingbackUrl != null) {
      firstWait = fallbackWait(solve, firstWait);
    }
    boolean pollHere = runningJob != null && firstWait.compareTo(pollHereWithin()) <= 0;
    String taskId;
    Providers.Provider provider = providers.get(solve.provider());
    try {
      taskId = providers.call(provider, () -> provider.client().submit(solve.task(), pingbackUrl));
    } catch (CaptchaAiException e) {
      return inPhp.submitError(solve, e);
    }
    Instant at = clock.instant();
    Instant freedAt =
        slotFreedAtEpochMilli > 0 ? Instant.ofEpochMilli(slotFreedAtEpochMilli) : null;
    // The task id before anything else, with the job that makes the first poll (this one, or the
    // poll job created right after) and the hand-off's record in the same statement.
    UUID pollJobId = pollHere ? runningJob : SolveJobs.pollJobId(solve.id(), submitNo, 1);
    Optional<RuntimeException> notStored =
        storeTaskId(
            solve,
            new Submitted(
                taskId,
                at,
                pollJobId,
                freedAt,
                pingbackUrl != null,
                provider.name(),
                provider.priceOfOne(solve.type()).orElse(null)));
    if (notStored.isPresent()) {
      return inPhp.taskIdLost(solve, taskId, notStored.get());
    }
    provider
        .priceOfOne(solve.type())
        .ifPresent(p -> events.spent(provider.name(), solve.type(), p));
    Instant firstPoll = at.plus(firstWait);
    log.info("Solve {} ({}) SUBMITTED as task {}", solve.businessKey(), solve.id(), taskId);
    events.submitted(provider.name(), solve.type(), false);
    if (freedAt != null) {
      events.handedOff(Duration.between(freedAt, at));
    }
    if (pollHere) {
      return new Step.FirstPoll(solve.id(), submitNo, firstPoll);
    }
    jobs.poll(solve, new PollJobRequest(solve.id(), submitNo, 1, firstPoll.toEpochMilli()));
    return Step.DONE;
  }

  /**
   * A first poll due within this is made by the running job itself after in.php: a poll job of its
   * own would be enqueued by JobRunr's master at its next pass (every poll interval) and hold a
   * thread about as long while it waits for its instant, and it would cost a JobRunr job more.
   */
  private Duration pollHereWithin() {
    return settings.pollLead().plus(settings.pollInterval());
  }

  /**
   * With pushed answers, the first poll is only the fallback for a lost push: near the type's
   * documented upper solve time (most solves are pushed before), but at most one poll interval
   * after the first poll polling alone would make, so a lost push costs at most one poll step.
   * While pushes arrive ({@link TaskOutcomes#pushesArrive}), it waits for the upper solve time
   * itself: a push that comes less than 5 s after a poll of its task waits for the provider's rule,
   * and a first poll timed where most tasks end makes that the common case of a slow type
   * (reCAPTCHA v2: 12 to 40 s). The upper time is the longest of the type's recent pushed solves
   * ({@link FirstPollWaits#longestPushed}) when that is below the documented one: a lost push then
   * costs up to the longest solve the provider really takes, not its documented worst. Once three
   * answers in a row came by poll alone, the usual wait is back.
   */
  private Duration fallbackWait(Solve solve, Duration firstWait) {
    Duration latest = firstWait.plus(settings.pollInterval());
    SolveTimes times = SolveTimes.documented().get(solve.type());
    Duration upper = times == null ? latest : times.max();
    boolean pushesArrive = outcomes.pushesArrive();
    if (pushesArrive) {
      Duration seen = firstPollWaits.longestPushed(solve.type()).orElse(upper);
      upper = seen.compareTo(upper) < 0 ? seen : upper;
    }
    Duration wait = pushesArrive || upper.compareTo(latest) < 0 ? upper : latest;
    return wait.compareTo(firstWait) > 0 ? wait : firstWait;
  }

  /**
   * Stores the task id, retried in-process; empty when stored, else the last failure (the task then
   * exists at the provider only: {@link SubmitOutcomes#taskIdLost}).
   */
  private Optional<RuntimeException> storeTaskId(Solve solve, Submitted submitted) {
    return InProcessRetry.run(
        STORE_ATTEMPTS,
        STORE_RETRY_PAUSE,
        () -> transitions.markSubmitted(solve.id(), submitted),
        (attempt, e) ->
            log.warn(
                "Solve {} ({}) task {}: storing the task id failed (attempt {} of {}): {}",
                solve.businessKey(),
                solve.id(),
                submitted.taskId(),
                attempt,
                STORE_ATTEMPTS,
                e.toString()));
  }

  private static Instant earliest(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
