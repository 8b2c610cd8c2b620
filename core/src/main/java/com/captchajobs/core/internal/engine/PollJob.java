package com.captchajobs.core.internal.engine;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.PollResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jobrunr.jobs.context.JobContext;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.server.runner.ThreadLocalJobContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll job (see "How a solve moves" in docs/architecture.md): one res.php call on the stored
 * task id at its intended instant. Token: stored with its expiry, the slot handed to the next
 * waiting solve. Not ready: the next poll 5 s after this call (or its intended instant, if later),
 * until the solve timeout; then the task is stale: it is given up (its slot stays taken a while, as
 * after a lost reply) and the solve is submitted afresh. A transient failure is retried by JobRunr
 * on the same task id. Whatever the trouble, past {@code captchaai.solve-deadline} the solve is
 * FAILED with {@code DEADLINE_EXCEEDED}.
 *
 * <p>A token frees the solve's slot; when a solve waits for one, this job keeps the hand-off and
 * submits that solve itself ({@link SubmitJob#carryOn}), so the freed slot is at work again at
 * once.
 */
public class PollJob implements JobRequestHandler<PollJobRequest> {

  private static final Logger log = LoggerFactory.getLogger(PollJob.class);

  /** The code recorded when no answer came within the solve timeout (the task is given up). */
  public static final String TIMEOUT = "TIMEOUT";

  /**
   * The code recorded when an answer was found so late that it may be past its token lifetime (the
   * task is given up and the solve submitted afresh).
   */
  public static final String ANSWER_TOO_OLD = "ANSWER_TOO_OLD";

  /** The provider's answer for a task id it no longer knows: the task is given up. */
  static final String TASK_GONE = "ERROR_WRONG_CAPTCHA_ID";

  private final SolveRepository repository;
  private final SlotHandoff handoff;
  private final Breaker breaker;
  private final CaptchaAiClient client;
  private final SolveJobs jobs;
  private final EngineSettings settings;
  private final EngineEvents events;
  private final Clock clock;
  private final SolveDeadline deadline;
  private volatile SubmitJob submitJob;

  public PollJob(
      SolveRepository repository,
      SlotHandoff handoff,
      Breaker breaker,
      CaptchaAiClient client,
      SolveJobs jobs,
      EngineSettings settings,
      EngineEvents events,
      Clock clock) {
    this.repository = repository;
    this.handoff = handoff;
    this.breaker = breaker;
    this.client = client;
    this.jobs = jobs;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.deadline = new SolveDeadline(repository, settings, events, clock);
  }

  /**
   * The submit job that carries on with a slot this job frees (the two call each other: a submit
   * job makes its first poll itself, a poll job submits the solve its token freed a slot for).
   */
  public void carryOnWith(SubmitJob submitJob) {
    this.submitJob = submitJob;
  }

  @Override
  public void run(PollJobRequest request) throws InterruptedException {
    JobContext context = ThreadLocalJobContext.getJobContext();
    UUID runningJob = context == null ? null : context.getJobId();
    SubmitJob next = submitJob;
    Optional<FleetGate.Handoff> taken = poll(request, next == null ? null : runningJob);
    if (taken.isPresent()) {
      next.carryOn(taken.get(), runningJob);
    }
  }

  /**
   * Makes the poll of {@code request}. With a {@code carrier} (the running job, else null), a token
   * that frees a slot for a waiting solve may return that hand-off: the carrier must then submit
   * that solve ({@link SubmitJob#carryOn}).
   */
  Optional<FleetGate.Handoff> poll(PollJobRequest request, UUID carrier)
      throws InterruptedException {
    Solve solve = repository.find(request.solveId()).orElse(null);
    if (solve == null
        || solve.status() != SolveState.SUBMITTED
        || solve.submits() != request.submitNo()) {
      return Optional.empty(); // stale: solved, failed or resubmitted meanwhile
    }
    Instant intended = Instant.ofEpochMilli(request.intendedAtEpochMilli());
    waitUntil(intended);
    Instant called = clock.instant();
    PollResult result;
    try {
      result = client.get(solve.taskId());
    } catch (CaptchaAiException e) {
      record(solve, request, intended, called, e.errorCode());
      onPollError(solve, request, e);
      return Optional.empty();
    }
    if (result instanceof PollResult.Solved solved) {
      record(solve, request, intended, called, "SOLVED");
      return onSolved(solve, request, solved, carrier);
    }
    record(solve, request, intended, called, "CAPCHA_NOT_READY");
    onNotReady(solve, request, called.isAfter(intended) ? called : intended);
    return Optional.empty();
  }

  private Optional<FleetGate.Handoff> onSolved(
      Solve solve, PollJobRequest request, PollResult.Solved solved, UUID carrier) {
    if (mayBePastItsUse(solve, request)) {
      failIfPastDeadline(solve);
      submitAfresh(solve, request, ANSWER_TOO_OLD, false);
      return Optional.empty();
    }
    Optional<Instant> stored =
        repository.markSolved(
            solve.id(),
            solve.taskId(),
            solved.token(),
            solved.userAgent(),
            settings.tokenTtl(solve.type()));
    if (stored.isEmpty()) {
      // The solve ended or runs another task now (requeued and submitted afresh while this call
      // was under way): this answer is not the current submission's, and its slot is not ours.
      log.info(
          "Solve {} ({}) task {} answered after it stopped being the solve's task: not stored",
          solve.businessKey(),
          solve.id(),
          solve.taskId());
      return Optional.empty();
    }
    Instant solvedAt = stored.get();
    log.info(
        "Solve {} ({}) SOLVED after {} poll(s)", solve.businessKey(), solve.id(), request.pollNo());
    Duration latency = Duration.between(solve.submittedAt(), solvedAt);
    events.solved(solve.type(), latency, request.pollNo());
    if (carrier != null) {
      return handoff.releaseAndTakeOne(solve.id(), carrier);
    }
    handoff.release(solve.id());
    return Optional.empty();
  }

  /**
   * True when the answer may be older than its type's token lifetime: found late (after an outage
   * or a crash), longer after the last "not ready" (or the submission) than both the token lifetime
   * and the solve timeout, which no ordinary poll rhythm comes near. Handing it out could hand out
   * an expired token, so the solve is submitted afresh instead.
   */
  private boolean mayBePastItsUse(Solve solve, PollJobRequest request) {
    Duration ttl = settings.tokenTtl(solve.type());
    Duration late = ttl.compareTo(settings.solveTimeout()) > 0 ? ttl : settings.solveTimeout();
    Instant now = clock.instant();
    if (!solve.submittedAt().plus(late).isBefore(now)) {
      return false; // the usual case: no query
    }
    Instant notReady =
        repository.lastNotReadyAt(solve.id(), request.submitNo()).orElse(solve.submittedAt());
    return notReady.plus(late).isBefore(now);
  }

  /**
   * The next poll is timed from this call, not from its intended instant: a call made late (after
   * an outage, a crash or a busy spell) must not be followed by one at once, since the provider
   * allows one poll per task every 5 s. A call is seldom more than milliseconds late, so the rhythm
   * drifts by that much.
   */
  private void onNotReady(Solve solve, PollJobRequest request, Instant called) {
    Instant next = called.plus(settings.pollInterval());
    if (next.isAfter(solve.submittedAt().plus(settings.solveTimeout()))) {
      failIfPastDeadline(solve);
      submitAfresh(solve, request, TIMEOUT, true);
      return;
    }
    int nextPoll = request.pollNo() + 1;
    if (!repository.markPolled(
        solve.id(),
        solve.taskId(),
        SolveJobs.pollJobId(solve.id(), request.submitNo(), nextPoll))) {
      return; // the solve ended or runs another task now: no next poll of this one
    }
    jobs.poll(solve, request.submitNo(), nextPoll, next);
  }

  private void onPollError(Solve solve, PollJobRequest request, CaptchaAiException e) {
    ErrorClass errorClass = e.errorClass();
    events.error(e.errorCode(), errorClass);
    if (e.errorClass() == ErrorClass.UNSOLVABLE
        && solve.unsolvableResubmits() < settings.unsolvableResubmits()) {
      var jobId = SolveJobs.jobId(solve.id(), "resubmit:" + (solve.unsolvableResubmits() + 1));
      if (!repository.forgetTask(solve.id(), solve.taskId(), true, e.errorCode(), jobId)) {
        return; // not the solve's task any more: its current submission is left alone
      }
      handoff.release(solve.id());
      log.info("Solve {} ({}) unsolvable, submitting once more", solve.businessKey(), solve.id());
      jobs.submit(jobId, solve.id(), solve.type(), solve.businessKey(), 0);
      return;
    }
    if (TASK_GONE.equals(e.errorCode())) {
      // The provider no longer knows the task (it forgets old ones): nothing to wait for there.
      failIfPastDeadline(solve);
      submitAfresh(solve, request, TASK_GONE, false);
      return;
    }
    if (e.errorClass() == ErrorClass.CREDENTIAL) {
      breaker.open(e.errorCode(), "res.php answered " + e.errorCode());
      log.error("Breaker OPEN: CaptchaAI rejected the API key ({})", e.errorCode());
    }
    if (e.permanent()) {
      if (!repository.markFailed(solve.id(), solve.taskId(), e.errorCode(), errorClass)) {
        return; // not the solve's task any more: its current submission is left alone
      }
      handoff.release(solve.id());
      log.warn(
          "Solve {} ({}) FAILED: {} ({})",
          solve.businessKey(),
          solve.id(),
          e.errorCode(),
          errorClass);
      throw new PermanentSolveException(solve.id(), e.errorCode(), errorClass);
    }
    failIfPastDeadline(solve);
    log.warn(
        "Solve {} ({}) poll failed with {} ({}), will retry the same task",
        solve.businessKey(),
        solve.id(),
        e.errorCode(),
        errorClass);
    throw e;
  }

  /**
   * No answer within the solve timeout: the task is given up and the solve submitted again. The
   * provider may still be working on the old task, so its slot stays taken by a phantom holder for
   * {@code captchaai.lost-submit-hold}, and the solve queues for a slot like any other.
   */
  private void submitAfresh(
      Solve solve, PollJobRequest request, String reason, boolean providerMayStillWork) {
    java.util.UUID jobId = SolveJobs.jobId(solve.id(), "stale:" + request.submitNo());
    if (!repository.forgetTask(solve.id(), solve.taskId(), false, reason, jobId)) {
      return; // not the solve's task any more: its current submission is left alone
    }
    if (providerMayStillWork) {
      handoff.holdForAbandonedTask(solve.id(), settings.lostSubmitHold());
    } else {
      handoff.release(solve.id()); // answered or forgotten: the task holds no provider thread
    }
    if (!TASK_GONE.equals(reason)) { // the provider's own code was counted as it came in
      events.error(reason, ErrorClass.TRANSIENT);
    }
    log.warn(
        "Solve {} ({}) task {} given up ({}): submitting afresh",
        solve.businessKey(),
        solve.id(),
        solve.taskId(),
        switch (reason) {
          case TIMEOUT -> "no answer within " + settings.solveTimeout();
          case ANSWER_TOO_OLD -> "its answer came too late to be sure it is still valid";
          default -> "the provider no longer knows it";
        });
    jobs.submit(jobId, solve.id(), solve.type(), solve.businessKey(), 0);
  }

  /**
   * Ends the solve as a dead job when its deadline passed; the task keeps its slot till its lease
   * ends.
   */
  private void failIfPastDeadline(Solve solve) {
    deadline.enforce(solve, () -> {});
  }

  private void record(
      Solve solve, PollJobRequest request, Instant intended, Instant called, String outcome) {
    repository.recordPoll(
        solve.id(), request.submitNo(), request.pollNo(), intended, called, outcome);
    events.polled(solve.type(), Duration.between(intended, called));
  }

  /** JobRunr starts a job up to one poll interval early: wait out the rest here. */
  private void waitUntil(Instant intended) throws InterruptedException {
    long millis = Duration.between(clock.instant(), intended).toMillis();
    if (millis > 0) {
      Thread.sleep(millis);
    }
  }
}
