package com.captchajobs.core.internal.steps;

import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.providers.CallPacing;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.PushRings;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.time.PushWatch;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an outcome of a task does to a solve, in one place, whichever way it came: a res.php reply
 * ({@link PollStep}), including the one a push rang for ({@code push.Pingbacks}: the pushed answer
 * itself is never used). So an answer found after a push is stored, expired, notified, webhooked
 * and frees its slot exactly like a polled one, and an error code is classified once, into one of
 * the outcomes the table "How a solve moves" in docs/architecture.md lists: an answer (stored, its
 * slot freed and handed on), a credential or permanent code ({@link Step.Failed}; a credential code
 * opens the breaker first), a transient one ({@link Step.Retry} of the same step), a task given up
 * and submitted afresh, or the deadline (FAILED as a dead job). An in.php reply ends in the same
 * failures and deadline; what else it does is {@link SubmitOutcomes}' to decide.
 *
 * <p>Slots are freed through {@link SlotHandoff} only (its class comment states the rule). Every
 * method returns the {@link Step} the job goes on with; nothing here throws for an outcome.
 */
public final class TaskOutcomes {

  /** The code recorded when no answer came within the solve timeout (the task is given up). */
  public static final String TIMEOUT = "TIMEOUT";

  /**
   * The code recorded when an answer was found so late that it may be past its token lifetime (the
   * task is given up and the solve submitted afresh).
   */
  public static final String ANSWER_TOO_OLD = "ANSWER_TOO_OLD";

  /** The provider's answer for a task id it no longer knows: the task is given up. */
  static final String TASK_GONE = "ERROR_WRONG_CAPTCHA_ID";

  private static final Logger log = LoggerFactory.getLogger(TaskOutcomes.class);

  private final SolveRepository repository;
  private final SolveTransitions transitions;
  private final SlotHandoff handoff;
  private final Providers providers;
  private final SolveJobs jobs;
  private final SolveSettings settings;
  private final EngineListener events;
  private final Clock clock;
  private final SolveDeadline deadline;
  private final PushWatch watch;

  /**
   * @param providers each provider's breaker and plan check (told of thread saturation); null on a
   *     node without a key (it only receives pushes)
   * @param watch told of every stored answer and how it came, on a worker that asks for pushes;
   *     else null
   */
  public TaskOutcomes(
      SolveRepository repository,
      SolveTransitions transitions,
      SlotHandoff handoff,
      Providers providers,
      SolveJobs jobs,
      SolveSettings settings,
      EngineListener events,
      Clock clock,
      PushWatch watch) {
    this.repository = repository;
    this.transitions = transitions;
    this.handoff = handoff;
    this.providers = providers;
    this.jobs = jobs;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.deadline = new SolveDeadline(transitions, settings, events, clock);
    this.watch = watch;
  }

  /** Whether pushes arrive on this worker ({@link PushWatch#pushesArrive}); false without push. */
  boolean pushesArrive() {
    return watch != null && watch.pushesArrive();
  }

  /** What an answer did: whether it was stored, and what the job goes on with. */
  public record Stored(boolean stored, Step next) {
    static final Stored NOTHING = new Stored(false, Step.DONE);
  }

  /**
   * Stores the answer of the solve's submission {@code submitNo} (task {@code solve.taskId()}),
   * unless it may be past its use (then the solve is submitted afresh). Stored only while the solve
   * is SUBMITTED with that very task id, so an answer for an old task never lands on a new one.
   * With a {@code carrier} (the running job), the freed slot may come back as a {@link Step.Carry}.
   *
   * @param polls the res.php calls made on the task so far
   * @param rang whether a push rang for it (the answer is always the one res.php gave, never the
   *     pushed one): counted as {@code via=push}
   */
  public Stored solved(
      Solve solve,
      int submitNo,
      int polls,
      String token,
      String userAgent,
      UUID carrier,
      boolean rang) {
    if (deadline.answerMayBePastItsUse(solve, submitNo)) {
      Optional<Step> failed = pastDeadline(solve);
      if (failed.isPresent()) {
        return new Stored(false, failed.get());
      }
      submitAfresh(solve, submitNo, ANSWER_TOO_OLD, false);
      return Stored.NOTHING;
    }
    Optional<Instant> stored =
        transitions.markSolved(
            solve.id(),
            solve.taskId(),
            token,
            userAgent,
            settings.tokenTtl(solve.type()),
            true,
            rang ? "push" : "poll");
    if (stored.isEmpty() && !repository.runsTask(solve.id(), solve.taskId())) {
      // The solve runs another task now (requeued and submitted afresh while this answer was on
      // its way): the answer is not the current submission's, and the slot is that submission's.
      return Stored.NOTHING;
    }
    // A polled answer of the solve's own task frees the provider's thread even when the row moved
    // on meanwhile (a deadline failed it): its slot is released as it always was.
    Instant solvedAt = stored.orElseGet(clock::instant);
    log.info(
        "Solve {} ({}) SOLVED{} after {} poll(s)",
        solve.businessKey(),
        solve.id(),
        rang ? " after a push" : "",
        polls);
    events.solved(
        solve.providerOrPrimary(),
        solve.type(),
        Duration.between(solve.submittedAt(), solvedAt),
        polls);
    if (stored.isPresent()) {
      events.answered(solve.providerOrPrimary(), solve.type(), rang);
      if (watch != null) {
        watch.answered(rang);
      }
    }
    if (carrier == null) {
      handoff.release(solve.id());
      return new Stored(stored.isPresent(), Step.DONE);
    }
    Step next =
        handoff.releaseAndTakeOne(solve.id(), carrier).<Step>map(Step.Carry::new).orElse(Step.DONE);
    return new Stored(stored.isPresent(), next);
  }

  /**
   * An error code for the solve's task (polled or pushed), classified once by the client:
   * unsolvable is submitted once more, a task the provider forgot is submitted afresh, a permanent
   * code fails the solve, and a transient one is retried on the same task. An outcome for a task
   * the solve no longer runs leaves its current submission alone.
   */
  public Step taskError(Solve solve, int submitNo, CaptchaAiException e) {
    ErrorClass errorClass = e.errorClass();
    events.error(e.errorCode(), errorClass);
    if (errorClass == ErrorClass.UNSOLVABLE
        && solve.unsolvableResubmits() < settings.unsolvableResubmits()) {
      // Named by the submission too: a requeue restarts the count, and JobRunr skips a known id.
      var jobId =
          SolveJobs.jobId(
              solve.id(), "resubmit:" + submitNo + ":" + (solve.unsolvableResubmits() + 1));
      if (transitions.forgetTask(solve.id(), solve.taskId(), true, e.errorCode(), jobId)) {
        handoff.release(solve.id());
        log.info("Solve {} ({}) unsolvable, submitting once more", solve.businessKey(), solve.id());
        jobs.submit(jobId, solve.id(), solve.type(), solve.businessKey(), 0);
      }
      return Step.DONE;
    }
    if (TASK_GONE.equals(e.errorCode())) {
      // The provider no longer knows the task (it forgets old ones): nothing to wait for there.
      return pastDeadline(solve).orElseGet(() -> submitAfresh(solve, submitNo, TASK_GONE, false));
    }
    if (e.permanent()) {
      return permanent(solve, e, "res.php");
    }
    Optional<Step> failed = pastDeadline(solve);
    if (failed.isPresent()) {
      return failed.get();
    }
    log.warn(
        "Solve {} ({}) poll failed with {} ({}), will retry the same task",
        solve.businessKey(),
        solve.id(),
        e.errorCode(),
        errorClass);
    return new Step.Retry(e);
  }

  /** A permanent code: a credential code opens the breaker first; then the solve fails. */
  Step permanent(Solve solve, CaptchaAiException e, String call) {
    if (e.errorClass() == ErrorClass.CREDENTIAL && providers != null) { // that provider's only
      providers.get(solve.provider()).breaker().keyRejected(e.errorCode(), call);
    }
    return fail(solve, e.errorCode(), e.errorClass());
  }

  /**
   * Fails the solve for good, frees its slot and hands it on. A solve with a task fails only while
   * it still runs that task (else nothing changes: {@link Step#DONE}); one without fails unless it
   * was solved meanwhile.
   */
  public Step fail(Solve solve, String code, ErrorClass errorClass) {
    if (solve.taskId() == null) {
      transitions.markFailed(solve.id(), code, errorClass);
    } else if (!transitions.markFailed(solve.id(), solve.taskId(), code, errorClass)) {
      return Step.DONE; // not the solve's task any more: its current submission is left alone
    }
    handoff.release(solve.id());
    log.warn("Solve {} ({}) FAILED: {} ({})", solve.businessKey(), solve.id(), code, errorClass);
    return new Step.Failed(solve.id(), code, errorClass);
  }

  /**
   * The task is given up and the solve submitted again. When the provider may still be working on
   * the old task, its slot stays taken by a phantom holder for {@code captchaai.lost-submit-hold},
   * and the solve queues for a slot like any other.
   */
  Step submitAfresh(Solve solve, int submitNo, String reason, boolean providerMayStillWork) {
    UUID jobId = SolveJobs.jobId(solve.id(), "stale:" + submitNo);
    if (!transitions.forgetTask(solve.id(), solve.taskId(), false, reason, jobId)) {
      return Step.DONE; // not the solve's task any more: its current submission is left alone
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
    return Step.DONE;
  }

  /**
   * Past its deadline the solve ends FAILED as a dead job ({@link Step.Failed}); its slot is freed
   * only when no task of it can be in flight, else it stays taken until its lease ends. Empty
   * within the deadline.
   */
  public Optional<Step> pastDeadline(Solve solve) {
    Optional<Step.Failed> failed = deadline.failIfPast(solve);
    if (failed.isPresent() && solve.taskId() == null) {
      handoff.release(solve.id());
    }
    return failed.map(Step.class::cast);
  }

  /**
   * The call a push rang for failed without an answer (a fault, an outage): the push still says the
   * answer is ready, so the fetch is rung again for 5 s after that call (the provider's rule after
   * a failed call), rather than leave a ready answer, and its thread at the provider, to the
   * fallback poll, which may be a solve time away. It takes the failed call's ring, as a push after
   * that call would, so it is one job and such a push adds nothing; a poll calling meanwhile ends
   * it ({@code PollStep.noCallSince}), and the deadline still bounds the solve.
   */
  void ringPushedFetchAgain(Solve solve, int submitNo) {
    try {
      PushRings.Rung rung = transitions.pushRings().ring(solve.id(), submitNo).orElse(null);
      if (rung == null) {
        return; // a push rang since the failed call, or the solve moved on: that fetch stands
      }
      transitions
          .calls()
          .lastPoll(solve.id(), submitNo)
          .ifPresent(
              last ->
                  jobs.pushedPoll(
                      solve,
                      submitNo,
                      rung.callNo(),
                      last.calledAt().toEpochMilli(),
                      CallPacing.pushedFetchAt(rung, last.calledAt(), last.calledAt(), settings)));
    } catch (RuntimeException e) {
      log.info(
          "Solve {}: could not ring the pushed fetch again ({}); the fallback poll stands",
          solve.id(),
          e.toString());
    }
  }
}
