package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.captchajobs.core.client.CaptchaAiApiException;
import com.captchajobs.core.client.CaptchaAiTransportException;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.config.EngineEvents;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PlanCheck;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveState;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.time.SolveDeadline;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;

/**
 * The outcome rules of {@link TaskOutcomes} on their own: which transition an outcome asks for,
 * what becomes of the solve's slot, and the step the job goes on with. The transitions, the gate
 * and the job scheduler are stand-ins that answer as the database would; what those statements do
 * to the rows is proven on PostgreSQL (SubmitJobTest, PollJobTest, SlotHandoffTest,
 * SolveLifecycleTest, PhantomReleaseTest).
 */
@Tag("unit")
class TaskOutcomesTest {

  static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  static final SolveSettings SETTINGS = SolveSettings.defaults();

  final SolveRepository repository = mock(SolveRepository.class);
  final SolveTransitions transitions = mock(SolveTransitions.class);
  final SlotHandoff handoff = mock(SlotHandoff.class);
  final Breaker breaker = mock(Breaker.class);
  final PlanCheck planCheck = mock(PlanCheck.class);
  final SolveJobs jobs = mock(SolveJobs.class);
  final List<String> errors = new ArrayList<>();
  final List<String> answers = new ArrayList<>();
  final EngineEvents events =
      new EngineEvents() {
        @Override
        public void error(String code, ErrorClass errorClass) {
          errors.add(code + "/" + errorClass);
        }

        @Override
        public void answered(CaptchaType type, boolean pushed) {
          answers.add(type + (pushed ? " pushed" : " polled"));
        }
      };

  TaskOutcomes outcomes(Breaker breaker) {
    return new TaskOutcomes(
        repository,
        transitions,
        handoff,
        breaker,
        planCheck,
        jobs,
        SETTINGS,
        events,
        Clock.fixed(NOW, ZoneOffset.UTC));
  }

  final TaskOutcomes outcomes = outcomes(breaker);

  /** A solve enqueued a minute ago, submitted 20 s ago as task 7001: well within every limit. */
  static Solve submitted(int unsolvableResubmits) {
    return solve("7001", NOW.minusSeconds(20), NOW.minusSeconds(60), unsolvableResubmits);
  }

  static Solve solve(String taskId, Instant submittedAt, Instant createdAt, int unsolvable) {
    return new Solve(
        UUID.randomUUID(),
        "checkout-42",
        CaptchaType.TURNSTILE,
        Map.of(),
        0,
        null,
        taskId == null ? SolveState.QUEUED : SolveState.SUBMITTED,
        taskId,
        submittedAt,
        null,
        null,
        null,
        null,
        null,
        1,
        2,
        0,
        unsolvable,
        createdAt,
        createdAt,
        null);
  }

  // --- res.php: the answer ---------------------------------------------------------------------

  @Test
  void anAnswerOfTheSolvesTaskIsStoredWithItsTypesLifetimeAndItsSlotIsFreed() {
    Solve solve = submitted(0);
    when(transitions.markSolved(
            solve.id(), "7001", "token-1", "ua", SETTINGS.tokenTtl(CaptchaType.TURNSTILE), true))
        .thenReturn(Optional.of(NOW));

    TaskOutcomes.Stored stored = outcomes.solved(solve, 1, 2, "token-1", "ua", null, false);

    assertThat(stored).isEqualTo(new TaskOutcomes.Stored(true, Step.DONE));
    verify(handoff).release(solve.id());
    assertThat(answers).containsExactly("TURNSTILE polled");
  }

  @Test
  void anAnswerFoundByTheRunningJobHandsTheFreedSlotToAWaitingSolveOnTheSameThread() {
    Solve solve = submitted(0);
    UUID carrier = UUID.randomUUID();
    FleetGate.Handoff next =
        new FleetGate.Handoff(UUID.randomUUID(), CaptchaType.TURNSTILE, "checkout-43", 1, NOW);
    when(transitions.markSolved(any(), any(), any(), any(), any(), anyBoolean()))
        .thenReturn(Optional.of(NOW));
    when(handoff.releaseAndTakeOne(solve.id(), carrier)).thenReturn(Optional.of(next));

    TaskOutcomes.Stored stored = outcomes.solved(solve, 1, 2, "token-1", "ua", carrier, true);

    assertThat(stored).isEqualTo(new TaskOutcomes.Stored(true, new Step.Carry(next)));
    verify(handoff, never()).release(any());
    assertThat(answers).containsExactly("TURNSTILE pushed");
  }

  @Test
  void anAnswerForATaskTheSolveNoLongerRunsIsNeitherStoredNorFreesTheNewSubmissionsSlot() {
    Solve solve = submitted(0);
    when(transitions.markSolved(any(), any(), any(), any(), any(), anyBoolean()))
        .thenReturn(Optional.empty());
    when(repository.find(solve.id()))
        .thenReturn(Optional.of(solve("7002", NOW, NOW.minusSeconds(60), 0)));

    TaskOutcomes.Stored stored = outcomes.solved(solve, 1, 2, "token-1", "ua", null, false);

    assertThat(stored).isEqualTo(new TaskOutcomes.Stored(false, Step.DONE));
    verifyNoInteractions(handoff);
    assertThat(answers).isEmpty();
  }

  @Test
  void anAnswerOfItsOwnTaskOnARowThatMovedOnStillFreesTheProvidersThreadButIsNotStored() {
    Solve solve = submitted(0);
    when(transitions.markSolved(any(), any(), any(), any(), any(), anyBoolean()))
        .thenReturn(Optional.empty());
    when(repository.find(solve.id())).thenReturn(Optional.of(solve));

    TaskOutcomes.Stored stored = outcomes.solved(solve, 1, 2, "token-1", "ua", null, false);

    assertThat(stored).isEqualTo(new TaskOutcomes.Stored(false, Step.DONE));
    verify(handoff).release(solve.id());
    assertThat(answers).isEmpty();
  }

  @Test
  void anAnswerThatMayBeOlderThanItsTokensLifetimeIsNotHandedOutButTheSolveIsSubmittedAfresh() {
    // submitted longer ago than both the token lifetime and the solve timeout, no "not ready" since
    Solve solve = solve("7001", NOW.minus(Duration.ofMinutes(5)), NOW.minusSeconds(60), 0);
    when(transitions.lastNotReadyAt(solve.id(), 1)).thenReturn(Optional.empty());
    when(transitions.forgetTask(eq(solve.id()), eq("7001"), eq(false), anyString(), any()))
        .thenReturn(true);

    TaskOutcomes.Stored stored = outcomes.solved(solve, 1, 9, "token-1", "ua", null, false);

    assertThat(stored).isEqualTo(new TaskOutcomes.Stored(false, Step.DONE));
    verify(transitions, never()).markSolved(any(), any(), any(), any(), any(), anyBoolean());
    verify(transitions)
        .forgetTask(
            solve.id(),
            "7001",
            false,
            PollJob.ANSWER_TOO_OLD,
            SolveJobs.jobId(solve.id(), "stale:1"));
    verify(handoff).release(solve.id());
    verify(jobs)
        .submit(
            SolveJobs.jobId(solve.id(), "stale:1"),
            solve.id(),
            CaptchaType.TURNSTILE,
            "checkout-42",
            0);
    assertThat(errors).containsExactly(PollJob.ANSWER_TOO_OLD + "/TRANSIENT");
  }

  @Test
  void anAnswerLateOnlyBecauseTheTaskTookLongIsStoredWhenItWasNotReadyRecently() {
    Solve solve = solve("7001", NOW.minus(Duration.ofMinutes(5)), NOW.minusSeconds(400), 0);
    when(transitions.lastNotReadyAt(solve.id(), 1)).thenReturn(Optional.of(NOW.minusSeconds(5)));
    when(transitions.markSolved(any(), any(), any(), any(), any(), anyBoolean()))
        .thenReturn(Optional.of(NOW));

    TaskOutcomes.Stored stored = outcomes.solved(solve, 1, 60, "token-1", "ua", null, false);

    assertThat(stored.stored()).isTrue();
    verify(jobs, never()).submit(any(), any(), any(), any(), anyInt());
  }

  // --- res.php: an error code ------------------------------------------------------------------

  @Test
  void aPermanentCodeForTheSolvesTaskFailsItFreesItsSlotAndEndsTheJobFailed() {
    Solve solve = submitted(0);
    when(transitions.markFailed(solve.id(), "7001", "ERROR_BAD_PARAMETERS", ErrorClass.REQUEST))
        .thenReturn(true);

    Step next =
        outcomes.taskError(solve, 1, new CaptchaAiApiException("ERROR_BAD_PARAMETERS", "7001"));

    assertThat(next)
        .isEqualTo(new Step.Failed(solve.id(), "ERROR_BAD_PARAMETERS", ErrorClass.REQUEST));
    verify(handoff).release(solve.id());
    verifyNoInteractions(breaker, jobs);
    assertThat(errors).containsExactly("ERROR_BAD_PARAMETERS/REQUEST");
  }

  @Test
  void aCredentialCodeOpensTheFleetsBreakerBeforeTheSolveFails() {
    Solve solve = submitted(0);
    when(transitions.markFailed(any(), any(), any(), any())).thenReturn(true);

    Step next =
        outcomes.taskError(solve, 1, new CaptchaAiApiException("ERROR_WRONG_USER_KEY", "7001"));

    assertThat(next)
        .isEqualTo(new Step.Failed(solve.id(), "ERROR_WRONG_USER_KEY", ErrorClass.CREDENTIAL));
    InOrder order = inOrder(breaker, transitions, handoff);
    order.verify(breaker).open("ERROR_WRONG_USER_KEY", "res.php answered ERROR_WRONG_USER_KEY");
    order
        .verify(transitions)
        .markFailed(solve.id(), "7001", "ERROR_WRONG_USER_KEY", ErrorClass.CREDENTIAL);
    order.verify(handoff).release(solve.id());
  }

  @Test
  void aCredentialCodeOnANodeWithoutABreakerStillFailsTheSolve() {
    Solve solve = submitted(0);
    when(transitions.markFailed(any(), any(), any(), any())).thenReturn(true);

    Step next =
        outcomes(null)
            .taskError(solve, 1, new CaptchaAiApiException("ERROR_KEY_DOES_NOT_EXIST", "7001"));

    assertThat(next).isInstanceOf(Step.Failed.class);
    verify(handoff).release(solve.id());
  }

  @Test
  void aPermanentCodeForATaskTheSolveNoLongerRunsLeavesItsCurrentSubmissionAlone() {
    Solve solve = submitted(0);
    when(transitions.markFailed(any(), any(), any(), any())).thenReturn(false);

    Step next =
        outcomes.taskError(solve, 1, new CaptchaAiApiException("ERROR_BAD_PARAMETERS", "7001"));

    assertThat(next).isEqualTo(Step.DONE);
    verifyNoInteractions(handoff);
  }

  @Test
  void aTransientCodeWithinTheDeadlineRetriesTheSameTaskAndKeepsItsSlot() {
    Solve solve = submitted(0);
    CaptchaAiApiException e = new CaptchaAiApiException("ERROR_SERVER_ERROR", "7001");

    Step next = outcomes.taskError(solve, 1, e);

    assertThat(next).isEqualTo(new Step.Retry(e));
    verifyNoInteractions(transitions, handoff, jobs);
    assertThat(errors).containsExactly("ERROR_SERVER_ERROR/TRANSIENT");
  }

  @Test
  void anUnsolvableTaskUnderTheLimitIsSubmittedOnceMoreWithItsSlotFreed() {
    Solve solve = submitted(0);
    when(transitions.forgetTask(
            eq(solve.id()), eq("7001"), eq(true), eq("ERROR_CAPTCHA_UNSOLVABLE"), any()))
        .thenReturn(true);

    Step next =
        outcomes.taskError(solve, 1, new CaptchaAiApiException("ERROR_CAPTCHA_UNSOLVABLE", "7001"));

    assertThat(next).isEqualTo(Step.DONE);
    ArgumentCaptor<UUID> resubmit = ArgumentCaptor.forClass(UUID.class);
    InOrder order = inOrder(transitions, handoff, jobs);
    order
        .verify(transitions)
        .forgetTask(
            eq(solve.id()),
            eq("7001"),
            eq(true),
            eq("ERROR_CAPTCHA_UNSOLVABLE"),
            resubmit.capture());
    order.verify(handoff).release(solve.id());
    // the job recorded on the row is the one submitted
    order
        .verify(jobs)
        .submit(resubmit.getValue(), solve.id(), CaptchaType.TURNSTILE, "checkout-42", 0);
  }

  @Test
  void anUnsolvableTaskWhoseRowMovedOnIsNotSubmittedAgain() {
    Solve solve = submitted(0);
    when(transitions.forgetTask(any(), any(), anyBoolean(), any(), any())).thenReturn(false);

    Step next =
        outcomes.taskError(solve, 1, new CaptchaAiApiException("ERROR_CAPTCHA_UNSOLVABLE", "7001"));

    assertThat(next).isEqualTo(Step.DONE);
    verifyNoInteractions(handoff, jobs);
  }

  @Test
  void anUnsolvableTaskPastTheLimitFailsTheSolve() {
    Solve solve = submitted(SETTINGS.unsolvableResubmits());
    when(transitions.markFailed(any(), any(), any(), any())).thenReturn(true);

    Step next =
        outcomes.taskError(solve, 2, new CaptchaAiApiException("ERROR_CAPTCHA_UNSOLVABLE", "7001"));

    assertThat(next)
        .isEqualTo(new Step.Failed(solve.id(), "ERROR_CAPTCHA_UNSOLVABLE", ErrorClass.UNSOLVABLE));
    verify(jobs, never()).submit(any(), any(), any(), any(), anyInt());
  }

  @Test
  void aTaskTheProviderForgotIsSubmittedAfreshAndItsCodeIsCountedOnce() {
    Solve solve = submitted(0);
    UUID stale = SolveJobs.jobId(solve.id(), "stale:1");
    when(transitions.forgetTask(solve.id(), "7001", false, PollJob.TASK_GONE, stale))
        .thenReturn(true);

    Step next = outcomes.taskError(solve, 1, new CaptchaAiApiException(PollJob.TASK_GONE, "7001"));

    assertThat(next).isEqualTo(Step.DONE);
    verify(handoff).release(solve.id());
    verify(handoff, never()).holdForAbandonedTask(any(), any());
    verify(jobs).submit(stale, solve.id(), CaptchaType.TURNSTILE, "checkout-42", 0);
    assertThat(errors).containsExactly(PollJob.TASK_GONE + "/REQUEST");
  }

  @Test
  void aTaskGivenUpWhileTheProviderMayStillWorkOnItKeepsItsSlotByAPhantom() {
    Solve solve = submitted(0);
    when(transitions.forgetTask(any(), any(), anyBoolean(), any(), any())).thenReturn(true);

    Step next = outcomes.submitAfresh(solve, 1, PollJob.TIMEOUT, true);

    assertThat(next).isEqualTo(Step.DONE);
    verify(handoff).holdForAbandonedTask(solve.id(), SETTINGS.lostSubmitHold());
    verify(handoff, never()).release(any());
    verify(jobs)
        .submit(
            SolveJobs.jobId(solve.id(), "stale:1"),
            solve.id(),
            CaptchaType.TURNSTILE,
            "checkout-42",
            0);
    assertThat(errors).containsExactly(PollJob.TIMEOUT + "/TRANSIENT");
  }

  @Test
  void aTaskGivenUpThatTheSolveNoLongerRunsSubmitsNothing() {
    Solve solve = submitted(0);
    when(transitions.forgetTask(any(), any(), anyBoolean(), any(), any())).thenReturn(false);

    assertThat(outcomes.submitAfresh(solve, 1, PollJob.TIMEOUT, true)).isEqualTo(Step.DONE);
    verifyNoInteractions(handoff, jobs);
  }

  // --- the deadline ------------------------------------------------------------------------------

  @Test
  void pastItsDeadlineATransientCodeFailsTheSolveAsADeadJobAndTheTasksSlotStaysTaken() {
    Solve solve = solve("7001", NOW.minusSeconds(20), NOW.minus(Duration.ofHours(1)), 0);
    when(transitions.failIfPastDeadline(
            solve.id(),
            SETTINGS.solveDeadline(),
            SolveDeadline.DEADLINE_EXCEEDED,
            ErrorClass.DEADLINE))
        .thenReturn(true);

    Step next =
        outcomes.taskError(solve, 1, new CaptchaAiApiException("ERROR_SERVER_ERROR", "7001"));

    assertThat(next)
        .isEqualTo(
            new Step.Failed(solve.id(), SolveDeadline.DEADLINE_EXCEEDED, ErrorClass.DEADLINE));
    verifyNoInteractions(handoff);
  }

  @Test
  void pastItsDeadlineASolveWithoutATaskFailsAndFreesItsSlot() {
    Solve solve = solve(null, null, NOW.minus(Duration.ofHours(1)), 0);
    when(transitions.failIfPastDeadline(any(), any(), any(), any())).thenReturn(true);

    Optional<Step> next = outcomes.pastDeadline(solve);

    assertThat(next)
        .contains(
            new Step.Failed(solve.id(), SolveDeadline.DEADLINE_EXCEEDED, ErrorClass.DEADLINE));
    verify(handoff).release(solve.id());
  }

  @Test
  void wellWithinItsDeadlineASolveCostsNoStatement() {
    assertThat(outcomes.pastDeadline(submitted(0))).isEmpty();
    verifyNoInteractions(transitions, handoff);
  }

  // --- in.php --------------------------------------------------------------------------------

  @Test
  void threadSaturationWaitsForAThreadGivesTheSlotBackAndSpendsNoRetry() {
    Solve solve = solve(null, null, NOW.minusSeconds(60), 0);

    Step next =
        outcomes.submitError(solve, new CaptchaAiApiException("ERROR_NO_SLOT_AVAILABLE", null));

    assertThat(next).isEqualTo(Step.DONE);
    ArgumentCaptor<Duration> wait = ArgumentCaptor.forClass(Duration.class);
    verify(transitions)
        .waitForThread(eq(solve.id()), wait.capture(), eq("ERROR_NO_SLOT_AVAILABLE"));
    // the thread wait, with up to a quarter more of jitter
    assertThat(wait.getValue())
        .isBetween(
            SETTINGS.threadWait(), SETTINGS.threadWait().plus(SETTINGS.threadWait().dividedBy(4)));
    verify(handoff).giveBack(solve.id());
    verify(handoff, never()).release(any());
    verify(planCheck).afterThreadsError("ERROR_NO_SLOT_AVAILABLE");
    verify(transitions, never()).markRetrying(any(), any(), any());
  }

  @Test
  void aLostInPhpReplyHoldsTheSlotByAPhantomBeforeTheRestIsHandedOnAndTheJobRetries() {
    Solve solve = solve(null, null, NOW.minusSeconds(60), 0);
    CaptchaAiTransportException lost =
        new CaptchaAiTransportException(
            CaptchaAiTransportException.TIMEOUT, null, "read timed out", null);

    Step next = outcomes.submitError(solve, lost);

    assertThat(next).isEqualTo(new Step.Retry(lost));
    InOrder order = inOrder(transitions, handoff);
    order
        .verify(transitions)
        .markRetrying(solve.id(), CaptchaAiTransportException.TIMEOUT, ErrorClass.TRANSIENT);
    order.verify(handoff).holdForAbandonedTask(solve.id(), SETTINGS.lostSubmitHold());
    order.verify(handoff).release(solve.id());
  }

  @Test
  void aTransientInPhpCodeRetriesWithoutAPhantomForNoTaskWasCreated() {
    Solve solve = solve(null, null, NOW.minusSeconds(60), 0);
    CaptchaAiApiException busy = new CaptchaAiApiException("ERROR_SERVER_ERROR", null);

    Step next = outcomes.submitError(solve, busy);

    assertThat(next).isEqualTo(new Step.Retry(busy));
    verify(transitions).markRetrying(solve.id(), "ERROR_SERVER_ERROR", ErrorClass.TRANSIENT);
    verify(handoff, never()).holdForAbandonedTask(any(), any());
    verify(handoff).release(solve.id());
  }

  @Test
  void aPermanentInPhpCodeFailsASolveWithoutATask() {
    Solve solve = solve(null, null, NOW.minusSeconds(60), 0);

    Step next = outcomes.submitError(solve, new CaptchaAiApiException("ERROR_PAGEURL", null));

    assertThat(next).isEqualTo(new Step.Failed(solve.id(), "ERROR_PAGEURL", ErrorClass.REQUEST));
    verify(transitions).markFailed(solve.id(), "ERROR_PAGEURL", ErrorClass.REQUEST);
    verify(handoff).release(solve.id());
  }

  @Test
  void aTaskIdThatCouldNotBeStoredHoldsTheSlotAndTheSubmitLockThenRetries() {
    Solve solve = solve(null, null, NOW.minusSeconds(60), 0);

    Step next = outcomes.taskIdLost(solve, "7003", new IllegalStateException("connection lost"));

    assertThat(next).isInstanceOf(Step.Retry.class);
    assertThat(((Step.Retry) next).cause()).isInstanceOf(SubmitJob.TaskIdNotStoredException.class);
    verify(handoff).holdForAbandonedTask(solve.id(), SETTINGS.lostSubmitHold());
    verify(transitions)
        .holdAfterLostTaskId(solve.id(), SETTINGS.lostSubmitHold(), SubmitJob.LOST_TASK_ID);
    verify(handoff, never()).release(any());
    assertThat(errors).containsExactly(SubmitJob.LOST_TASK_ID + "/TRANSIENT");
  }
}
