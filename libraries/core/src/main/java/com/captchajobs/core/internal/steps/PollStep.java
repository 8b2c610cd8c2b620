package com.captchajobs.core.internal.steps;

import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.PollResult;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.engine.PollJobRequest;
import com.captchajobs.core.internal.engine.PushedPollJob;
import com.captchajobs.core.internal.engine.PushedPollRequest;
import com.captchajobs.core.internal.notify.PushNotice;
import com.captchajobs.core.internal.providers.CallPacing;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.store.TaskCalls;
import com.captchajobs.core.internal.time.PushWatch;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * The poll step of a solve (see "How a solve moves" in docs/architecture.md), made by the poll job
 * and the fetch a push rings for through {@link SolveLife}: one res.php call on the stored task id
 * at its intended instant. Token: stored with its expiry, the slot handed to the next waiting
 * solve. Not ready: the next poll 5 s after this call (or its intended instant, if later), until
 * the solve timeout; then the task is stale: it is given up (its slot stays taken a while, as after
 * a lost reply) and the solve is submitted afresh. What an answer or an error code does is {@link
 * TaskOutcomes}' to decide: a transient failure is retried by JobRunr on the same task id; whatever
 * the trouble, past {@code captchaai.solve-deadline} the solve is FAILED with {@code
 * DEADLINE_EXCEEDED}.
 *
 * <p>A token frees the solve's slot; when a solve waits for one, the running job keeps the hand-off
 * and submits that solve itself ({@link SolveLife}), so the freed slot is at work again at once.
 */
public final class PollStep {

  private final SolveRepository repository;
  private final SolveTransitions transitions;
  private final SolveJobs jobs;
  private final SolveSettings settings;
  private final EngineListener events;
  private final Clock clock;
  private final TaskOutcomes outcomes;
  private final CallPacing pacing;

  public PollStep(
      SolveRepository repository,
      SolveTransitions transitions,
      TaskOutcomes outcomes,
      Providers providers,
      SolveJobs jobs,
      SolveSettings settings,
      EngineListener events,
      Clock clock) {
    this.repository = repository;
    this.transitions = transitions;
    this.outcomes = outcomes;
    this.jobs = jobs;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.pacing = new CallPacing(providers, transitions, settings, clock);
  }

  /**
   * Makes the poll of {@code request}. With a {@code carrier} (the running job, else null), a token
   * that frees a slot for a waiting solve may return that hand-off ({@link Step.Carry}): the
   * carrier must then submit that solve ({@link SolveLife}).
   */
  Step poll(PollJobRequest request, UUID carrier) throws InterruptedException {
    Solve solve = repository.find(request.solveId()).orElse(null);
    if (moved(solve, request.submitNo())) {
      return Step.DONE; // stale: solved, failed or resubmitted meanwhile
    }
    Instant intended = Instant.ofEpochMilli(request.intendedAtEpochMilli());
    pacing.waitUntil(pacing.notBeforeTheProviderAllows(solve, request.submitNo(), intended));
    PollResult result;
    Instant called;
    while (true) {
      called = clock.instant();
      // Another job (a fetch a push rang for, a rerun) may have called on this task meanwhile, or
      // be calling now: the call is reserved first, and else made 5 s after that one.
      while (!pacing.reserve(solve, request.submitNo(), called)) {
        solve = repository.find(request.solveId()).orElse(null);
        if (moved(solve, request.submitNo())) {
          return Step.DONE; // answered meanwhile (by a push's fetch), or resubmitted
        }
        Instant blocking =
            transitions.calls().lastReservedCall(solve.id(), request.submitNo()).orElse(called);
        pacing.waitUntil(CallPacing.latest(intended, CallPacing.nextCallAfter(blocking, settings)));
        called = clock.instant();
      }
      try {
        result = pacing.call(solve, request.submitNo());
        break;
      } catch (CaptchaAiException e) {
        record(solve, request, intended, called, e.errorCode());
        Step step = outcomes.taskError(solve, request.submitNo(), e);
        if (!(step instanceof Step.Retry)) {
          return step; // an outcome: stored, failed, given up or past the deadline
        }
        // the answer may be ready and its provider thread idle: call again as soon as allowed
        intended = waitOutFailedCall(solve, request.submitNo(), called);
        solve = repository.find(request.solveId()).orElse(null);
        if (moved(solve, request.submitNo())) {
          return Step.DONE; // answered meanwhile (by a push's fetch), or resubmitted
        }
      }
    }
    if (result instanceof PollResult.Solved solved) {
      record(solve, request, intended, called, "SOLVED");
      return outcomes
          .solved(
              solve,
              request.submitNo(),
              request.pollNo(),
              solved.token(),
              solved.userAgent(),
              carrier,
              false)
          .next();
    }
    record(solve, request, intended, called, "CAPCHA_NOT_READY");
    return onNotReady(solve, request, called.isAfter(intended) ? called : intended);
  }

  /**
   * Makes the res.php call a push rang for ({@link PushedPollJob}): once the task's last call is 5
   * s past, and only while no call was made on the task since the push came (that call answered
   * it). A token is stored as after any poll, counted as come by push; an error code is handled
   * exactly like a polled one; "not ready" changes nothing (the fallback polls go on). The call is
   * recorded as a poll of the task before it is made, so the fallback poll keeps its 5 s after it.
   * With a {@code carrier} (the running job), a token that frees a slot for a waiting solve may
   * return that hand-off ({@link Step.Carry}), as after a poll.
   */
  Step pollPushed(PushedPollRequest request, UUID carrier) throws InterruptedException {
    Solve solve = unanswered(request);
    if (solve == null) {
      return Step.DONE;
    }
    Instant earliest =
        CallPacing.pushedFetchAt(
            request.lastCallEpochMilli(), request.intendedAtEpochMilli(), settings);
    if (pacing.waitUntil(earliest)) {
      solve = unanswered(request);
      if (solve == null) {
        return Step.DONE; // answered meanwhile, or a poll called since the push came
      }
    }
    Instant called = clock.instant();
    while (!pacing.reserve(solve, request.submitNo(), called)) {
      Instant blocking =
          transitions.calls().lastReservedCall(solve.id(), request.submitNo()).orElse(called);
      if (request.lastCallEpochMilli() == 0
          || blocking.isAfter(
              Instant.ofEpochMilli(request.lastCallEpochMilli()).plus(settings.pollInterval()))) {
        return Step.DONE; // another job calls on the task now, after the push came: it answers it
      }
      // The call before the push, timed from its answer: wait until 5 s after that.
      pacing.waitUntil(CallPacing.nextCallAfter(blocking, settings));
      solve = unanswered(request);
      if (solve == null) {
        return Step.DONE;
      }
      called = clock.instant();
    }
    return callPushed(solve, request.submitNo(), earliest, called, carrier);
  }

  /** What a pushed fetch on a worker's own executor came to, and when to claim again (or null). */
  record PushedCall(Step step, Instant tryAgainAt) {}

  /**
   * The call a push rang for, made at the notice's instant by the worker whose claim wins ({@link
   * CallPacing#claimPushed}); see {@code push.PushedFetches}. With a {@code carrier} (this worker's
   * JobRunr server, else null), a token that frees a slot for a waiting solve may return that
   * hand-off ({@link Step.Carry}); otherwise a freed slot gets a submit job.
   */
  PushedCall pollPushed(PushNotice notice, UUID carrier) throws InterruptedException {
    Instant earliest =
        CallPacing.pushedFetchAt(
            notice.lastCallEpochMilli(), notice.intendedAtEpochMilli(), settings);
    pacing.waitUntil(earliest); // the executor starts it then: at most the clocks' rounding
    Instant called = clock.instant();
    TaskCalls.Claim claim = pacing.claimPushed(notice, called);
    if (!claim.won()) {
      Instant again =
          claim.tooSoonAfter().map(t -> CallPacing.nextCallAfter(t, settings)).orElse(null);
      return new PushedCall(Step.DONE, again);
    }
    Solve solve = repository.find(notice.solveId()).orElse(null);
    return new PushedCall(
        solve == null ? Step.DONE : callPushed(solve, notice.submitNo(), earliest, called, carrier),
        null);
  }

  /** The reserved call a push rang for on the task of {@code submitNo}, and its outcome. */
  private Step callPushed(
      Solve solve, int submitNo, Instant earliest, Instant called, UUID carrier) {
    int pollNo = transitions.calls().lastPoll(solve.id(), submitNo).map(p -> p.pollNo()).orElse(1);
    PollJobRequest poll = new PollJobRequest(solve.id(), submitNo, pollNo, earliest.toEpochMilli());
    // recorded before the call, so the fallback poll keeps its 5 s after it
    transitions.calls().recordPoll(solve.id(), submitNo, pollNo, earliest, called, PUSH_RANG);
    PollResult result;
    try {
      result = pacing.call(solve, submitNo);
    } catch (CaptchaAiException e) {
      record(solve, poll, earliest, called, e.errorCode());
      Step step = outcomes.taskError(solve, submitNo, e);
      if (step instanceof Step.Retry) {
        outcomes.ringPushedFetchAgain(solve, submitNo);
        return Step.DONE;
      }
      return step;
    }
    if (result instanceof PollResult.Solved solved) {
      record(solve, poll, earliest, called, "SOLVED");
      return outcomes
          .solved(solve, submitNo, solve.polls(), solved.token(), solved.userAgent(), carrier, true)
          .next();
    }
    record(solve, poll, earliest, called, "CAPCHA_NOT_READY");
    return Step.DONE;
  }

  /** Whether the solve no longer waits for the answer of submission {@code submitNo}. */
  private static boolean moved(Solve solve, int submitNo) {
    return solve == null || solve.status() != SolveStatus.SUBMITTED || solve.submits() != submitNo;
  }

  /**
   * After a res.php call that failed without an answer (a fault, an outage), the poll calls again
   * itself 5 s after it (the provider's rule holds after a failed call too), for as long as the
   * calls fail and the solve is within its deadline ({@link TaskOutcomes#taskError} ends it past
   * that). A single fault then costs the answer 5 s, not JobRunr's backoff (5 to 6.25 s, then 9, 27
   * s and more, up to {@code captchaai.max-backoff}) plus the turn of the node that moves scheduled
   * jobs, and an answer that became ready during a provider outage is fetched within 5 s of its
   * end. The provider sees one call per task every 5 s, what polling alone sends; the job keeps its
   * worker thread meanwhile, as a poll within its lead does. Returns the instant of the next call.
   */
  private Instant waitOutFailedCall(Solve solve, int submitNo, Instant called)
      throws InterruptedException {
    Instant last = transitions.calls().lastReservedCall(solve.id(), submitNo).orElse(called);
    Instant next = CallPacing.nextCallAfter(last.isAfter(called) ? last : called, settings);
    pacing.waitUntil(next);
    return next;
  }

  /** The outcome recorded for a call a push rang for, until its reply is recorded. */
  static final String PUSH_RANG = "PUSH_RANG";

  /** The solve while it waits for the push's submission and no poll called since; else null. */
  private Solve unanswered(PushedPollRequest request) {
    Solve solve = repository.find(request.solveId()).orElse(null);
    if (moved(solve, request.submitNo()) || solve.taskId() == null) {
      return null;
    }
    long last =
        transitions
            .calls()
            .lastPoll(solve.id(), request.submitNo())
            .map(p -> p.calledAt().toEpochMilli())
            .orElse(0L);
    return last == request.lastCallEpochMilli() ? solve : null;
  }

  /**
   * While pushes arrive ({@link PushWatch#pushesArrive}), a fallback poll that found the task not
   * ready is followed by the next one this many poll intervals later, not one: a push that comes
   * less than 5 s after a call on its task waits for the provider's rule, and with a call every 5 s
   * every push would. Six steps (30 s): five pushes in six are fetched at once, a long task costs a
   * call and a job every 30 s, and a lost push is found 15 s late on average, not 2.5 s. Fallback
   * polls start at the type's upper solve time (its longest recent pushed solve, at most the
   * documented one): this matters for tasks that outlive it.
   */
  static final int FALLBACK_STEPS = 6;

  /**
   * The next poll is timed from this call, not from its intended instant: a call made late (after
   * an outage, a crash or a busy spell) must not be followed by one at once, since the provider
   * allows one poll per task every 5 s. A call is seldom more than milliseconds late, so the rhythm
   * drifts by that much.
   */
  private Step onNotReady(Solve solve, PollJobRequest request, Instant called) {
    Instant next = CallPacing.nextCallAfter(called, settings);
    Instant spaced =
        called
            .plus(settings.pollInterval().multipliedBy(FALLBACK_STEPS))
            .plus(CallPacing.SPACING_MARGIN);
    if (outcomes.pushesArrive()
        && !spaced.isAfter(solve.submittedAt().plus(settings.solveTimeout()))) {
      next = spaced; // the last polls before the solve timeout keep the usual rhythm
    }
    if (next.isAfter(solve.submittedAt().plus(settings.solveTimeout()))) {
      return outcomes
          .pastDeadline(solve)
          .orElseGet(
              () -> outcomes.submitAfresh(solve, request.submitNo(), TaskOutcomes.TIMEOUT, true));
    }
    int nextPoll = request.pollNo() + 1;
    if (transitions.markPolled(
        solve.id(),
        solve.taskId(),
        SolveJobs.pollJobId(solve.id(), request.submitNo(), nextPoll))) {
      jobs.poll(solve, request.submitNo(), nextPoll, next);
    } // else the solve ended or runs another task now: no next poll of this one
    return Step.DONE;
  }

  private void record(
      Solve solve, PollJobRequest request, Instant intended, Instant called, String outcome) {
    transitions
        .calls()
        .recordPoll(solve.id(), request.submitNo(), request.pollNo(), intended, called, outcome);
    events.polled(solve.providerOrPrimary(), solve.type(), Duration.between(intended, called));
  }
}
