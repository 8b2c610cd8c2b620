package com.captchajobs.core.internal.steps;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaAiApiException;
import com.captchajobs.core.client.CaptchaAiTransportException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.jobrunr.JobsReady;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every outcome {@link TaskOutcomes} and {@link SubmitOutcomes} decide, one row each, on real
 * PostgreSQL with the real transitions, gate and JobRunr storage (no JobRunr server: a follow-up
 * job is created, never run). Each row starts from one solve holding slot 0 (with its task {@code
 * T1} when SUBMITTED) and says what the outcome leaves behind: the step, the solve's status and
 * code, the slot, the breaker and the follow-up submit job. Not in the unit tier: every
 * collaborator is a database-backed final class, and the database is never faked.
 */
class TaskOutcomesTest {

  static final String TASK = "T1";

  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;
  static SolveRepository repository;
  static Breaker breaker;
  static final List<String> errorsCounted = new ArrayList<>();
  static TaskOutcomes outcomes;

  /** The outcome classes of a primary alone, and of one with a backup provider beside it. */
  static Outcomes alone;

  static Outcomes withBackup;

  record Outcomes(TaskOutcomes task, SubmitOutcomes inPhp) {}

  /** What became of slot 0, which the solve held before the outcome. */
  enum Slot {
    HELD,
    FREE,
    PHANTOM
  }

  record Row(
      String outcome,
      String status,
      boolean pastDeadline,
      int unsolvableResubmits,
      BiFunction<Outcomes, Solve, Step> act,
      Class<? extends Step> step,
      String statusAfter,
      String codeAfter,
      Slot slot,
      boolean breakerOpen,
      boolean submitJob,
      boolean backup) {
    @Override
    public String toString() {
      return outcome;
    }
  }

  @BeforeAll
  static void migrate() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(3);
    schema.migrate(dataSource);
    db = new Db(dataSource, schema);
    repository = new SolveRepository(dataSource, schema);
    SolveTransitions transitions = new SolveTransitions(dataSource, schema);
    OwnJobRunr jobRunr = OwnJobRunr.open(dataSource, schema);
    SolveJobs jobs =
        new SolveJobs(
            jobRunr.scheduler(),
            Clock.systemUTC(),
            SolveSettings.DEFAULT_POLL_LEAD,
            SolveSettings.DEFAULT_TRANSIENT_RETRIES,
            JobsReady.NONE);
    FleetGate gate = new FleetGate(dataSource, schema, Duration.ofMinutes(10), "outcomes-node");
    gate.resize(1);
    breaker = new Breaker(dataSource, schema, "fingerprint-of-the-test-key");
    EngineListener counting =
        new EngineListener() {
          @Override
          public void error(String code, ErrorClass errorClass) {
            errorsCounted.add(code + "/" + errorClass);
          }
        };
    SlotHandoff handoff = new SlotHandoff(gate, jobs, transitions);
    Providers primary = Providers.single(null, breaker, null);
    outcomes =
        new TaskOutcomes(
            repository,
            transitions,
            handoff,
            primary,
            jobs,
            SolveSettings.defaults(),
            counting,
            Clock.systemUTC(),
            null);
    alone =
        new Outcomes(
            outcomes,
            new SubmitOutcomes(
                outcomes, transitions, handoff, primary, SolveSettings.defaults(), counting));
    Providers beside =
        new Providers(
            primary.primary(),
            List.of(new Providers.Provider("backup", null, null, breaker, null)),
            null,
            null);
    withBackup =
        new Outcomes(
            outcomes,
            new SubmitOutcomes(
                outcomes, transitions, handoff, beside, SolveSettings.defaults(), counting));
  }

  @AfterAll
  static void close() {
    dataSource.close();
  }

  @BeforeEach
  void emptyTablesAndAClosedBreaker() {
    db.update("DELETE FROM captchajobs.solve");
    db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = NULL, node = NULL, lease_until = NULL,"
            + " phantom = false");
    db.update("DELETE FROM captchajobs.cj_jobrunr_jobs");
    breaker.closeBreaker();
    errorsCounted.clear();
  }

  /** A TURNSTILE solve in {@code status} holding slot 0; SUBMITTED ones run task T1. */
  static Solve solve(String status, String createdAgo, String submittedAgo, int resubmits) {
    UUID id = UUID.randomUUID();
    boolean submitted = status.equals("SUBMITTED");
    db.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
            + " task_id, submitted_at, submits, unsolvable_resubmits, created_at) VALUES"
            + " (?, ?, 'TURNSTILE', '{\"sitekey\":\"0x4AAA\",\"pageUrl\":\"https://a.example/\"}'"
            + "::jsonb, repeat('0', 64), ?, ?, CASE WHEN ? THEN now() - ?::interval END, ?, ?,"
            + " now() - ?::interval)",
        id,
        "outcome-" + id,
        status,
        submitted ? TASK : null,
        submitted,
        submittedAgo,
        submitted ? 1 : 0,
        resubmits,
        createdAgo);
    db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = ?, node = 'outcomes-node',"
            + " acquired_at = now(), lease_until = now() + interval '10 minutes' WHERE slot_no = 0",
        id);
    return repository.find(id).orElseThrow();
  }

  static CaptchaAiApiException provider(String code) {
    return new CaptchaAiApiException(code, null);
  }

  static Row row(
      String outcome,
      String status,
      BiFunction<Outcomes, Solve, Step> act,
      Class<? extends Step> step,
      String statusAfter,
      String codeAfter,
      Slot slot,
      boolean breakerOpen,
      boolean submitJob) {
    return new Row(
        outcome,
        status,
        false,
        0,
        act,
        step,
        statusAfter,
        codeAfter,
        slot,
        breakerOpen,
        submitJob,
        false);
  }

  static Stream<Row> outcomes() {
    return Stream.of(
        row(
            "res.php unsolvable, first time: submitted once more",
            "SUBMITTED",
            (o, s) -> o.task().taskError(s, 1, provider("ERROR_CAPTCHA_UNSOLVABLE")),
            Step.Done.class,
            "QUEUED",
            "ERROR_CAPTCHA_UNSOLVABLE",
            Slot.FREE,
            false,
            true),
        new Row(
            "res.php unsolvable after the resubmits allowed: FAILED",
            "SUBMITTED",
            false,
            SolveSettings.DEFAULT_UNSOLVABLE_RESUBMITS,
            (o, s) -> o.task().taskError(s, 1, provider("ERROR_CAPTCHA_UNSOLVABLE")),
            Step.Failed.class,
            "FAILED",
            "ERROR_CAPTCHA_UNSOLVABLE",
            Slot.FREE,
            false,
            false,
            false),
        row(
            "res.php forgot the task: submitted afresh",
            "SUBMITTED",
            (o, s) -> o.task().taskError(s, 1, provider(TaskOutcomes.TASK_GONE)),
            Step.Done.class,
            "QUEUED",
            TaskOutcomes.TASK_GONE,
            Slot.FREE,
            false,
            true),
        row(
            "res.php credential code: breaker opened, FAILED",
            "SUBMITTED",
            (o, s) -> o.task().taskError(s, 1, provider("ERROR_WRONG_USER_KEY")),
            Step.Failed.class,
            "FAILED",
            "ERROR_WRONG_USER_KEY",
            Slot.FREE,
            true,
            false),
        row(
            "res.php permanent request code: FAILED, breaker left closed",
            "SUBMITTED",
            (o, s) -> o.task().taskError(s, 1, provider("ERROR_BAD_PARAMETERS")),
            Step.Failed.class,
            "FAILED",
            "ERROR_BAD_PARAMETERS",
            Slot.FREE,
            false,
            false),
        row(
            "res.php transient code: the same task retried, slot kept",
            "SUBMITTED",
            (o, s) -> o.task().taskError(s, 1, provider("ERROR_SERVER_ERROR")),
            Step.Retry.class,
            "SUBMITTED",
            null,
            Slot.HELD,
            false,
            false),
        new Row(
            "res.php transient code past the deadline: FAILED, slot kept while the task may run",
            "SUBMITTED",
            true,
            0,
            (o, s) -> o.task().taskError(s, 1, provider("ERROR_SERVER_ERROR")),
            Step.Failed.class,
            "FAILED",
            SolveDeadline.DEADLINE_EXCEEDED,
            Slot.HELD,
            false,
            false,
            false),
        row(
            "in.php no thread: waits for one, slot given back",
            "QUEUED",
            (o, s) -> o.inPhp().submitError(s, provider("ERROR_NO_SLOT_AVAILABLE")),
            Step.Done.class,
            "WAITING_FOR_THREAD",
            "ERROR_NO_SLOT_AVAILABLE",
            Slot.FREE,
            false,
            false),
        row(
            "in.php credential code: breaker opened, FAILED",
            "QUEUED",
            (o, s) -> o.inPhp().submitError(s, provider("ERROR_KEY_DOES_NOT_EXIST")),
            Step.Failed.class,
            "FAILED",
            "ERROR_KEY_DOES_NOT_EXIST",
            Slot.FREE,
            true,
            false),
        row(
            "in.php transient code: retried, slot freed",
            "QUEUED",
            (o, s) -> o.inPhp().submitError(s, provider("ERROR_SERVER_ERROR")),
            Step.Retry.class,
            "QUEUED",
            "ERROR_SERVER_ERROR",
            Slot.FREE,
            false,
            false),
        new Row(
            "in.php transient code beside a backup provider: waits for the gate to route it,"
                + " no retry spent",
            "QUEUED",
            false,
            0,
            (o, s) -> o.inPhp().submitError(s, provider("ERROR_SERVER_ERROR")),
            Step.Done.class,
            "WAITING_FOR_THREAD",
            "ERROR_SERVER_ERROR",
            Slot.FREE,
            false,
            false,
            true),
        row(
            "in.php reply lost: retried, slot held by a phantom",
            "QUEUED",
            (o, s) ->
                o.inPhp()
                    .submitError(
                        s,
                        new CaptchaAiTransportException(
                            CaptchaAiTransportException.NETWORK, null, "reset", null)),
            Step.Retry.class,
            "QUEUED",
            CaptchaAiTransportException.NETWORK,
            Slot.PHANTOM,
            false,
            false),
        row(
            "in.php task id not stored: retried, slot held by a phantom",
            "QUEUED",
            (o, s) -> o.inPhp().taskIdLost(s, "T9", new IllegalStateException("database gone")),
            Step.Retry.class,
            "QUEUED",
            SubmitOutcomes.LOST_TASK_ID,
            Slot.PHANTOM,
            false,
            false),
        new Row(
            "past the deadline without a task: FAILED, slot freed",
            "QUEUED",
            true,
            0,
            (o, s) -> o.task().pastDeadline(s).orElseThrow(),
            Step.Failed.class,
            "FAILED",
            SolveDeadline.DEADLINE_EXCEEDED,
            Slot.FREE,
            false,
            false,
            false),
        row(
            "answer: SOLVED, slot freed",
            "SUBMITTED",
            (o, s) -> o.task().solved(s, 1, 3, "token-1", "agent", null, false).next(),
            Step.Done.class,
            "SOLVED",
            null,
            Slot.FREE,
            false,
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("outcomes")
  void eachOutcomeLeavesTheSolveTheSlotTheBreakerAndTheNextJobAsItsRowSays(Row row) {
    Solve solve =
        solve(
            row.status(), row.pastDeadline() ? "1 hour" : "0 s", "10 s", row.unsolvableResubmits());

    Step step = row.act().apply(row.backup() ? withBackup : alone, solve);

    assertThat(step).isInstanceOf(row.step());
    assertThat(column(solve.id(), "status")).isEqualTo(row.statusAfter());
    assertThat(column(solve.id(), "error_code")).isEqualTo(row.codeAfter());
    assertThat(slot()).isEqualTo(row.slot());
    assertThat(breaker.openState().isPresent()).isEqualTo(row.breakerOpen());
    assertThat(submitJobs(solve.id())).isEqualTo(row.submitJob() ? 1 : 0);
    if (step instanceof Step.Failed failed) {
      assertThat(failed.solveId()).isEqualTo(solve.id());
      assertThat(failed.code()).isEqualTo(row.codeAfter());
    }
  }

  @Test
  void anAnswerIsStoredWithItsTokenAndAnExpiryOfItsTypesLifetime() {
    Solve solve = solve("SUBMITTED", "0 s", "10 s", 0);

    TaskOutcomes.Stored stored = outcomes.solved(solve, 1, 2, "token-ok", "agent", null, true);

    assertThat(stored.stored()).isTrue();
    assertThat(column(solve.id(), "token")).isEqualTo("token-ok");
    assertThat(column(solve.id(), "answered_via")).isEqualTo("push");
    assertThat(
            db.queryOne(
                    "SELECT extract(epoch FROM expires_at - solved_at)::int FROM captchajobs.solve"
                        + " WHERE id = ?",
                    rs -> rs.getInt(1),
                    solve.id())
                .orElseThrow())
        .isEqualTo((int) SolveSettings.defaults().tokenTtl(solve.type()).toSeconds());
  }

  @Test
  void anAnswerForATaskTheSolveNoLongerRunsIsDroppedAndTheCurrentSubmissionKeepsItsSlot() {
    Solve solve = solve("SUBMITTED", "0 s", "10 s", 0);
    db.update("UPDATE captchajobs.solve SET task_id = 'T2' WHERE id = ?", solve.id());

    TaskOutcomes.Stored stored = outcomes.solved(solve, 1, 2, "token-old", "agent", null, false);

    assertThat(stored).isEqualTo(new TaskOutcomes.Stored(false, Step.DONE));
    assertThat(column(solve.id(), "status")).isEqualTo("SUBMITTED");
    assertThat(column(solve.id(), "token")).isNull();
    assertThat(slot()).isEqualTo(Slot.HELD);
  }

  @Test
  void anAnswerFoundLongerAfterTheSubmissionThanItsTokenLivesIsNotHandedOutButSubmittedAfresh() {
    // TURNSTILE tokens live 270 s by default; no "not ready" was recorded since the submission.
    Solve solve = solve("SUBMITTED", "0 s", "10 minutes", 0);

    TaskOutcomes.Stored stored = outcomes.solved(solve, 1, 9, "token-late", "agent", null, false);

    assertThat(stored.stored()).isFalse();
    assertThat(column(solve.id(), "status")).isEqualTo("QUEUED");
    assertThat(column(solve.id(), "error_code")).isEqualTo(TaskOutcomes.ANSWER_TOO_OLD);
    assertThat(column(solve.id(), "token")).isNull();
    assertThat(submitJobs(solve.id())).isEqualTo(1);
    assertThat(errorsCounted).contains(TaskOutcomes.ANSWER_TOO_OLD + "/TRANSIENT");
  }

  @Test
  void aFailureForATaskTheSolveNoLongerRunsLeavesItsCurrentSubmissionAlone() {
    Solve solve = solve("SUBMITTED", "0 s", "10 s", 0);
    db.update("UPDATE captchajobs.solve SET task_id = 'T2' WHERE id = ?", solve.id());

    Step step = outcomes.taskError(solve, 1, provider("ERROR_BAD_PARAMETERS"));

    assertThat(step).isEqualTo(Step.DONE);
    assertThat(column(solve.id(), "status")).isEqualTo("SUBMITTED");
    assertThat(slot()).isEqualTo(Slot.HELD);
  }

  private static String column(UUID id, String name) {
    return db.queryOne(
            "SELECT " + name + "::text FROM captchajobs.solve WHERE id = ?",
            rs -> new String[] {rs.getString(1)},
            id)
        .orElseThrow()[0];
  }

  private static Slot slot() {
    return db.queryOne(
            "SELECT solve_id IS NULL, phantom FROM captchajobs.gate_slot WHERE slot_no = 0",
            rs -> rs.getBoolean(1) ? Slot.FREE : rs.getBoolean(2) ? Slot.PHANTOM : Slot.HELD)
        .orElseThrow();
  }

  /** JobRunr jobs that submit the solve (a resubmission or a fresh submission). */
  private static int submitJobs(UUID id) {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?"
                + " AND jobasjson LIKE '%SubmitJobRequest%'",
            rs -> rs.getInt(1), "%" + id + "%")
        .orElseThrow();
  }
}
