package com.captchajobs.core.internal.engine;

import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.config.EngineEvents;
import com.captchajobs.core.internal.config.EngineSettings;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.internal.retry.PermanentSolveException;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.time.SolveDeadline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the provider's answer about a task does to its solve, whichever way the answer came: polled
 * by {@link PollJob} or pushed to {@link Pingbacks}. One path for both, so that a pushed answer is
 * stored, expired, notified, webhooked and frees its slot exactly like a polled one, and a pushed
 * error code is classified like a polled one.
 */
public final class TaskOutcomes {

  private static final Logger log = LoggerFactory.getLogger(TaskOutcomes.class);

  private final SolveRepository repository;
  private final SlotHandoff handoff;
  private final Breaker breaker;
  private final SolveJobs jobs;
  private final EngineSettings settings;
  private final EngineEvents events;
  private final Clock clock;
  private final SolveDeadline deadline;

  public TaskOutcomes(
      SolveRepository repository,
      SlotHandoff handoff,
      Breaker breaker,
      SolveJobs jobs,
      EngineSettings settings,
      EngineEvents events,
      Clock clock) {
    this.repository = repository;
    this.handoff = handoff;
    this.breaker = breaker;
    this.jobs = jobs;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.deadline = new SolveDeadline(repository, settings, events, clock);
  }

  /** What storing an answer did. */
  public record Stored(boolean stored, Optional<FleetGate.Handoff> handoff) {
    static final Stored NOTHING = new Stored(false, Optional.empty());
  }

  /**
   * Stores the answer of the solve's submission {@code submitNo} (task {@code solve.taskId()}),
   * unless it may be past its use (then the solve is submitted afresh). Stored only while the solve
   * is SUBMITTED with that very task id, so an answer for an old task never lands on a new one.
   * With a {@code carrier} (the running job), the freed slot may come back as a hand-off the
   * carrier must submit itself.
   *
   * @param polls the res.php calls made on the task so far
   * @param pushed whether the answer was pushed by the provider, not found by a poll
   */
  public Stored solved(
      Solve solve,
      int submitNo,
      int polls,
      String token,
      String userAgent,
      UUID carrier,
      boolean pushed) {
    if (mayBePastItsUse(solve, submitNo)) {
      failIfPastDeadline(solve);
      submitAfresh(solve, submitNo, PollJob.ANSWER_TOO_OLD, false);
      return Stored.NOTHING;
    }
    Optional<Instant> stored =
        repository.markSolved(
            solve.id(), solve.taskId(), token, userAgent, settings.tokenTtl(solve.type()), !pushed);
    if (stored.isEmpty() && (pushed || !stillRuns(solve))) {
      // Stored already (by a poll or an earlier push), or the solve runs another task now
      // (requeued and submitted afresh while this answer was on its way): the answer is not the
      // current submission's, and the slot belongs to that submission.
      return Stored.NOTHING;
    }
    // A polled answer of the solve's own task frees the provider's thread even when the row moved
    // on meanwhile (a deadline failed it): its slot is released as it always was.
    Instant solvedAt = stored.orElseGet(clock::instant);
    if (pushed) {
      log.info(
          "Solve {} ({}) SOLVED by push after {} poll(s)", solve.businessKey(), solve.id(), polls);
    } else {
      log.info("Solve {} ({}) SOLVED after {} poll(s)", solve.businessKey(), solve.id(), polls);
    }
    events.solved(solve.type(), Duration.between(solve.submittedAt(), solvedAt), polls);
    if (carrier != null) {
      return new Stored(stored.isPresent(), handoff.releaseAndTakeOne(solve.id(), carrier));
    }
    handoff.release(solve.id());
    return new Stored(stored.isPresent(), Optional.empty());
  }

  /** Whether the solve's row still names this task (whatever its status). */
  private boolean stillRuns(Solve solve) {
    return repository
        .find(solve.id())
        .map(row -> java.util.Objects.equals(row.taskId(), solve.taskId()))
        .orElse(false);
  }

  /**
   * True when the answer may be older than its type's token lifetime: found late (after an outage
   * or a crash), longer after the last "not ready" (or the submission) than both the token lifetime
   * and the solve timeout, which no ordinary poll rhythm comes near. Handing it out could hand out
   * an expired token, so the solve is submitted afresh instead.
   */
  private boolean mayBePastItsUse(Solve solve, int submitNo) {
    Duration ttl = settings.tokenTtl(solve.type());
    Duration late = ttl.compareTo(settings.solveTimeout()) > 0 ? ttl : settings.solveTimeout();
    Instant now = clock.instant();
    if (!solve.submittedAt().plus(late).isBefore(now)) {
      return false; // the usual case: no query
    }
    Instant notReady = repository.lastNotReadyAt(solve.id(), submitNo).orElse(solve.submittedAt());
    return notReady.plus(late).isBefore(now);
  }

  /**
   * An error code for the task, classified once by the client: unsolvable is submitted once more, a
   * task the provider forgot is submitted afresh, a permanent code fails the solve (a credential
   * code also opens the breaker, when this node has one) and throws {@link
   * PermanentSolveException}; a transient one rethrows {@code e} for a retry on the same task.
   */
  public void error(Solve solve, int submitNo, CaptchaAiException e) {
    ErrorClass errorClass = e.errorClass();
    events.error(e.errorCode(), errorClass);
    if (errorClass == ErrorClass.UNSOLVABLE
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
    if (PollJob.TASK_GONE.equals(e.errorCode())) {
      // The provider no longer knows the task (it forgets old ones): nothing to wait for there.
      failIfPastDeadline(solve);
      submitAfresh(solve, submitNo, PollJob.TASK_GONE, false);
      return;
    }
    if (errorClass == ErrorClass.CREDENTIAL && breaker != null) {
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
   * The task is given up and the solve submitted again. When the provider may still be working on
   * the old task, its slot stays taken by a phantom holder for {@code captchaai.lost-submit-hold},
   * and the solve queues for a slot like any other.
   */
  void submitAfresh(Solve solve, int submitNo, String reason, boolean providerMayStillWork) {
    UUID jobId = SolveJobs.jobId(solve.id(), "stale:" + submitNo);
    if (!repository.forgetTask(solve.id(), solve.taskId(), false, reason, jobId)) {
      return; // not the solve's task any more: its current submission is left alone
    }
    if (providerMayStillWork) {
      handoff.holdForAbandonedTask(solve.id(), settings.lostSubmitHold());
    } else {
      handoff.release(solve.id()); // answered or forgotten: the task holds no provider thread
    }
    if (!PollJob.TASK_GONE.equals(reason)) { // the provider's own code was counted as it came in
      events.error(reason, ErrorClass.TRANSIENT);
    }
    log.warn(
        "Solve {} ({}) task {} given up ({}): submitting afresh",
        solve.businessKey(),
        solve.id(),
        solve.taskId(),
        switch (reason) {
          case PollJob.TIMEOUT -> "no answer within " + settings.solveTimeout();
          case PollJob.ANSWER_TOO_OLD -> "its answer came too late to be sure it is still valid";
          default -> "the provider no longer knows it";
        });
    jobs.submit(jobId, solve.id(), solve.type(), solve.businessKey(), 0);
  }

  /**
   * Ends the solve as a dead job when its deadline passed; the task keeps its slot till its lease
   * ends.
   */
  void failIfPastDeadline(Solve solve) {
    deadline.enforce(solve, () -> {});
  }
}
