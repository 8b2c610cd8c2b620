package com.captchajobs.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every move of a solve row on real PostgreSQL, and the guard of each: a transition happens only
 * from the states (and for the task) it names, so a late or repeated call changes nothing.
 */
class SolveTransitionsTest {

  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;
  static SolveTransitions transitions;

  @BeforeAll
  static void migrate() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(2);
    schema.migrate(dataSource);
    db = new Db(dataSource, schema);
    transitions = new SolveTransitions(dataSource, schema);
  }

  @AfterAll
  static void close() {
    dataSource.close();
  }

  /** A TURNSTILE solve in {@code status}, running {@code taskId} (null: none), created ago. */
  static UUID solve(String status, String taskId, String createdAgo) {
    UUID id = UUID.randomUUID();
    db.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
            + " task_id, submitted_at, submits, created_at) VALUES (?, ?, 'TURNSTILE', '{}'::jsonb,"
            + " repeat('0', 64), ?, ?, CASE WHEN ?::text IS NULL THEN NULL ELSE now() END,"
            + " CASE WHEN ?::text IS NULL THEN 0 ELSE 1 END, now() - ?::interval)",
        id,
        "transition-" + id,
        status,
        taskId,
        taskId,
        taskId,
        createdAgo);
    return id;
  }

  static String column(UUID id, String name) {
    return db.queryOne(
            "SELECT " + name + "::text FROM captchajobs.solve WHERE id = ?",
            rs -> new String[] {rs.getString(1)},
            id)
        .orElseThrow()[0];
  }

  static boolean inFuture(UUID id, String name) {
    return db.queryOne(
            "SELECT " + name + " > now() FROM captchajobs.solve WHERE id = ?",
            rs -> rs.getBoolean(1),
            id)
        .orElseThrow();
  }

  @Test
  void onlyAQueuedSolveIsParkedToWaitForASlot() {
    UUID queued = solve("QUEUED", null, "0 s");
    UUID submitted = solve("SUBMITTED", "T1", "0 s");

    assertThat(transitions.markWaiting(queued)).isTrue();
    assertThat(transitions.markWaiting(submitted)).isFalse();

    assertThat(column(queued, "status")).isEqualTo("WAITING_FOR_THREAD");
    assertThat(column(queued, "thread_waits")).isEqualTo("1");
    assertThat(column(submitted, "status")).isEqualTo("SUBMITTED");
  }

  @Test
  void theSubmitLockIsTakenByOneRunAtATimeAndGivenBack() {
    UUID id = solve("QUEUED", null, "0 s");

    assertThat(transitions.lockForSubmit(id, Duration.ofMinutes(1))).isTrue();
    assertThat(transitions.lockForSubmit(id, Duration.ofMinutes(1))).isFalse();
    transitions.unlockSubmit(id);
    assertThat(transitions.lockForSubmit(id, Duration.ofMinutes(1))).isTrue();
  }

  @Test
  void aSolveThatAlreadyRunsATaskCannotBeLockedForAnotherSubmit() {
    UUID id = solve("SUBMITTED", "T1", "0 s");

    assertThat(transitions.lockForSubmit(id, Duration.ofMinutes(1))).isFalse();
  }

  @Test
  void aSubmissionStoresItsTaskCountsItClearsTheLastErrorAndRecordsTheHandedSlot() {
    UUID id = solve("QUEUED", null, "0 s");
    db.update(
        "UPDATE captchajobs.solve SET error_code = 'ERROR_SERVER_ERROR', error_class ="
            + " 'TRANSIENT', submit_lock_until = now() + interval '1 minute' WHERE id = ?",
        id);
    Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    UUID pollJob = UUID.randomUUID();

    transitions.markSubmitted(
        id,
        new SolveTransitions.Submitted(
            "7300042", at, pollJob, at.minusMillis(40), true, null, null));

    assertThat(column(id, "status")).isEqualTo("SUBMITTED");
    assertThat(column(id, "task_id")).isEqualTo("7300042");
    assertThat(column(id, "submits")).isEqualTo("1");
    assertThat(column(id, "error_code")).isNull();
    assertThat(column(id, "submit_lock_until")).isNull();
    assertThat(column(id, "job_id")).isEqualTo(pollJob.toString());
    assertThat(column(id, "push_expected")).isEqualTo("true");
    assertThat(
            db.queryOne(
                "SELECT (submit_at - freed_at) = interval '40 milliseconds'"
                    + " FROM captchajobs.slot_handoff WHERE solve_id = ?",
                rs -> rs.getBoolean(1),
                id))
        .hasValue(true);
    assertThat(
            db.query(
                "SELECT kind FROM captchajobs.solve_event WHERE solve_id = ?",
                rs -> rs.getString(1),
                id))
        .containsExactly(SolveEvents.SUBMIT);
  }

  @Test
  void anAnswerIsStoredOnlyForTheTaskTheSolveRunsWithAnExpiryOnTheDatabaseClock() {
    UUID id = solve("SUBMITTED", "T2", "0 s");

    Optional<Instant> forOldTask =
        transitions.markSolved(id, "T1", "old-token", "ua", Duration.ofSeconds(90), true, "poll");
    Optional<Instant> forItsTask =
        transitions.markSolved(id, "T2", "new-token", "ua", Duration.ofSeconds(90), true, "poll");

    assertThat(forOldTask).isEmpty();
    assertThat(forItsTask).isPresent();
    assertThat(column(id, "token")).isEqualTo("new-token");
    assertThat(column(id, "polls")).isEqualTo("1");
    assertThat(column(id, "answered_via")).isEqualTo("poll");
    assertThat(column(id, "(expires_at - solved_at)")).isEqualTo("00:01:30");
    assertThat(
            transitions.markSolved(id, "T2", "again", "ua", Duration.ofSeconds(90), true, "poll"))
        .isEmpty();
  }

  @Test
  void aSolvedSolveIsNeverFailedAndATaskFailureOnlyFailsTheTaskItNames() {
    UUID solved = solve("SOLVED", "T1", "0 s");
    UUID running = solve("SUBMITTED", "T2", "0 s");

    transitions.markFailed(solved, "ERROR_BAD_PARAMETERS", ErrorClass.REQUEST);
    assertThat(transitions.markFailed(running, "T1", "ERROR_BAD_PARAMETERS", ErrorClass.REQUEST))
        .isFalse();

    assertThat(column(solved, "status")).isEqualTo("SOLVED");
    assertThat(column(running, "status")).isEqualTo("SUBMITTED");
    assertThat(transitions.markFailed(running, "T2", "ERROR_BAD_PARAMETERS", ErrorClass.REQUEST))
        .isTrue();
    assertThat(column(running, "status")).isEqualTo("FAILED");
    assertThat(column(running, "error_class")).isEqualTo("REQUEST");
  }

  @Test
  void aTaskIsForgottenOnlyWhileTheSolveStillRunsItAndAnUnsolvableOneIsCounted() {
    UUID id = solve("SUBMITTED", "T1", "0 s");
    UUID next = UUID.randomUUID();

    assertThat(transitions.forgetTask(id, "T0", true, "ERROR_CAPTCHA_UNSOLVABLE", next)).isFalse();
    assertThat(transitions.forgetTask(id, "T1", true, "ERROR_CAPTCHA_UNSOLVABLE", next)).isTrue();

    assertThat(column(id, "status")).isEqualTo("QUEUED");
    assertThat(column(id, "task_id")).isNull();
    assertThat(column(id, "submitted_at")).isNull();
    assertThat(column(id, "unsolvable_resubmits")).isEqualTo("1");
    assertThat(column(id, "job_id")).isEqualTo(next.toString());
    assertThat(transitions.forgetTask(id, "T1", true, "ERROR_CAPTCHA_UNSOLVABLE", next)).isFalse();
  }

  @Test
  void theDeadlineFailsOnlyAnUnfinishedSolveWhoseLifeSinceCreationOrRequeueIsOver() {
    UUID young = solve("SUBMITTED", "T1", "1 minute");
    UUID old = solve("QUEUED", null, "1 hour");
    UUID requeued = solve("QUEUED", null, "1 hour");
    UUID oldSolved = solve("SOLVED", "T1", "1 hour");
    db.update("UPDATE captchajobs.solve SET requeued_at = now() WHERE id = ?", requeued);
    Duration deadline = Duration.ofMinutes(10);

    assertThat(
            transitions.failIfPastDeadline(
                young, deadline, "DEADLINE_EXCEEDED", ErrorClass.DEADLINE))
        .isFalse();
    assertThat(
            transitions.failIfPastDeadline(
                requeued, deadline, "DEADLINE_EXCEEDED", ErrorClass.DEADLINE))
        .isFalse();
    assertThat(
            transitions.failIfPastDeadline(
                oldSolved, deadline, "DEADLINE_EXCEEDED", ErrorClass.DEADLINE))
        .isFalse();
    assertThat(
            transitions.failIfPastDeadline(old, deadline, "DEADLINE_EXCEEDED", ErrorClass.DEADLINE))
        .isTrue();
    assertThat(column(old, "status")).isEqualTo("FAILED");
    assertThat(column(old, "error_code")).isEqualTo("DEADLINE_EXCEEDED");
  }

  @Test
  void waitingForAThreadSetsWhenToTryAgainAndGivesTheSubmitLockBack() {
    UUID id = solve("QUEUED", null, "0 s");
    transitions.lockForSubmit(id, Duration.ofMinutes(1));

    transitions.waitForThread(id, Duration.ofMinutes(5), "ERROR_NO_SLOT_AVAILABLE");

    assertThat(column(id, "status")).isEqualTo("WAITING_FOR_THREAD");
    assertThat(column(id, "error_code")).isEqualTo("ERROR_NO_SLOT_AVAILABLE");
    assertThat(column(id, "submit_lock_until")).isNull();
    assertThat(inFuture(id, "not_before")).isTrue();
    assertThat(column(id, "thread_waits")).isEqualTo("1");
  }

  @Test
  void aLostTaskIdHoldsTheSubmitLockAndTheNextTryButNeverTouchesASolveWithATask() {
    UUID lost = solve("QUEUED", null, "0 s");
    UUID running = solve("SUBMITTED", "T1", "0 s");

    transitions.holdAfterLostTaskId(lost, Duration.ofMinutes(1), "TASK_ID_NOT_STORED");
    transitions.holdAfterLostTaskId(running, Duration.ofMinutes(1), "TASK_ID_NOT_STORED");

    assertThat(inFuture(lost, "submit_lock_until")).isTrue();
    assertThat(inFuture(lost, "not_before")).isTrue();
    assertThat(column(lost, "error_code")).isEqualTo("TASK_ID_NOT_STORED");
    assertThat(column(running, "error_code")).isNull();
    assertThat(column(running, "submit_lock_until")).isNull();
  }

  @Test
  void aPollIsCountedOnlyForTheTaskTheSolveRuns() {
    UUID id = solve("SUBMITTED", "T2", "0 s");

    assertThat(transitions.markPolled(id, "T1", UUID.randomUUID())).isFalse();
    assertThat(transitions.markPolled(id, "T2", UUID.randomUUID())).isTrue();

    assertThat(column(id, "polls")).isEqualTo("1");
  }

  @Test
  void oneResPhpCallIsReservedAtATimePerSubmission() {
    UUID id = solve("SUBMITTED", "T1", "0 s");
    Instant first = Instant.parse("2026-01-01T10:00:00Z");
    Instant second = first.plusSeconds(5);

    assertThat(transitions.calls().reserveCall(id, 1, first, Instant.EPOCH)).isTrue();
    // a second job that last saw no call (or an earlier one) does not call too
    assertThat(transitions.calls().reserveCall(id, 1, second, Instant.EPOCH)).isFalse();
    assertThat(transitions.calls().reserveCall(id, 2, second, first))
        .isFalse(); // not its submission
    assertThat(transitions.calls().reserveCall(id, 1, second, first)).isTrue();
    assertThat(transitions.calls().lastReservedCall(id, 1)).hasValue(second);
    assertThat(column(id, "call_no")).isEqualTo("2");
  }

  @Test
  void theCallAPushRangForIsClaimedOnceAndOnlyWhileNoCallWasReservedSinceTheRing() {
    UUID id = solve("SUBMITTED", "T1", "0 s");
    Instant t0 = Instant.parse("2026-01-01T10:00:00Z");
    TaskCalls calls = transitions.calls();
    calls.reserveCall(id, 1, t0, Instant.EPOCH); // call 1
    calls.callAnswered(id, 1, t0.plusMillis(400));
    PushRings.Rung rung = transitions.pushRings().ring(id, 1).orElseThrow();
    assertThat(rung).isEqualTo(new PushRings.Rung(1, t0.plusMillis(400)));
    int rungAfter = rung.callNo();

    // 5 s after the call but not after its answer: too soon, and when to claim again
    assertThat(calls.claimPushedCall(id, 1, rungAfter, t0.plusSeconds(5), t0))
        .isEqualTo(new TaskCalls.Claim(false, Optional.of(t0.plusMillis(400))));
    assertThat(calls.claimPushedCall(id, 2, rungAfter, t0.plusSeconds(6), t0.plusSeconds(1)))
        .as("not its submission")
        .isEqualTo(new TaskCalls.Claim(false, Optional.empty()));
    Instant claimed = t0.plusSeconds(6);
    assertThat(calls.claimPushedCall(id, 1, rungAfter, claimed, t0.plusSeconds(1)).won()).isTrue();
    // every other worker told of the same ring loses, whenever it claims
    assertThat(calls.claimPushedCall(id, 1, rungAfter, t0.plusSeconds(20), t0.plusSeconds(15)))
        .isEqualTo(new TaskCalls.Claim(false, Optional.empty()));
    assertThat(calls.lastReservedCall(id, 1)).hasValue(claimed);
    assertThat(column(id, "call_no")).isEqualTo("2");

    // a poll reserved a call after the next ring: that ring's claim loses
    int rungAgain = transitions.pushRings().ring(id, 1).orElseThrow().callNo();
    assertThat(calls.reserveCall(id, 1, t0.plusSeconds(12), t0.plusSeconds(7))).isTrue();
    assertThat(calls.claimPushedCall(id, 1, rungAgain, t0.plusSeconds(30), t0.plusSeconds(25)))
        .isEqualTo(new TaskCalls.Claim(false, Optional.empty()));
    assertThat(column(id, "call_no")).isEqualTo("3");
  }

  @Test
  void anAnsweredCallMovesTheLastCallForwardButNeverBack() {
    UUID id = solve("SUBMITTED", "T1", "0 s");
    Instant called = Instant.parse("2026-01-01T10:00:00Z");
    transitions.calls().reserveCall(id, 1, called, Instant.EPOCH);

    transitions.calls().callAnswered(id, 1, called.plusMillis(700));
    transitions.calls().callAnswered(id, 1, called.plusMillis(300));

    assertThat(transitions.calls().lastReservedCall(id, 1)).hasValue(called.plusMillis(700));
  }

  @Test
  void aRetriedPollKeepsItsLaterCallAndTheLastNotReadyIsFound() {
    UUID id = solve("SUBMITTED", "T1", "0 s");
    Instant t0 = Instant.parse("2026-01-01T10:00:00Z");
    transitions.calls().recordPoll(id, 1, 1, t0, t0.plusSeconds(1), "CAPCHA_NOT_READY");
    transitions
        .calls()
        .recordPoll(id, 1, 2, t0.plusSeconds(5), t0.plusSeconds(9), "CAPCHA_NOT_READY");
    transitions
        .calls()
        .recordPoll(id, 1, 2, t0.plusSeconds(5), t0.plusSeconds(6), "CAPCHA_NOT_READY");
    transitions.calls().recordPoll(id, 1, 3, t0.plusSeconds(10), t0.plusSeconds(11), "OK");

    assertThat(transitions.calls().lastNotReadyAt(id, 1)).hasValue(t0.plusSeconds(9));
    assertThat(transitions.calls().lastNotReadyAt(id, 2)).isEmpty();
    assertThat(transitions.calls().lastPoll(id, 1))
        .hasValue(new TaskCalls.LastPoll(3, t0.plusSeconds(11)));
  }
}
