package com.captchajobs.core.internal.steps;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.RecaptchaV2Task;
import com.captchajobs.core.client.TurnstileTask;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.engine.PollJobRequest;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.jobrunr.JobsReady;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.providers.CallPacing;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.time.PushWatch;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One poll of a task, on real PostgreSQL and JobRunr storage (no server) and the simulator over
 * HTTP, with the engine's clock stopped: every instant the step records or schedules is then exact.
 * Turnstile tasks are ready at once, reCAPTCHA v2 tasks never within the test.
 */
class PollStepTest {

  static final String KEY = "pollStepKeyPOLLSTEPkey1234567890";

  /** The engine's clock, stopped at an instant the test sets (the database keeps its own). */
  static final class StoppedClock extends Clock {
    volatile Instant now = Instant.now();

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  static CaptchaAiSimulator sim;
  static CaptchaAiClient client;
  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;
  static final StoppedClock clock = new StoppedClock();
  static PollStep step;
  static PollStep stepWhilePushesArrive;

  @BeforeAll
  static void start() {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 10)
            .solveTime("turnstile", Duration.ZERO, Duration.ZERO)
            .solveTime("userrecaptcha", Duration.ofHours(1), Duration.ofHours(1))
            .build()
            .start();
    client = CaptchaAiClient.builder().apiKey(KEY).baseUrl(sim.baseUrl()).build();
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(3);
    schema.migrate(dataSource);
    db = new Db(dataSource, schema);
    SolveRepository repository = new SolveRepository(dataSource, schema);
    SolveTransitions transitions = new SolveTransitions(dataSource, schema);
    SolveJobs jobs =
        new SolveJobs(
            OwnJobRunr.open(dataSource, schema).scheduler(),
            clock,
            SolveSettings.DEFAULT_POLL_LEAD,
            SolveSettings.DEFAULT_TRANSIENT_RETRIES,
            JobsReady.NONE);
    FleetGate gate = new FleetGate(dataSource, schema, Duration.ofMinutes(10), "poll-node");
    gate.resize(1);
    TaskOutcomes outcomes =
        new TaskOutcomes(
            repository,
            transitions,
            new SlotHandoff(gate, jobs, transitions),
            Providers.single(null, new Breaker(dataSource, schema, "fingerprint"), null),
            jobs,
            SolveSettings.defaults(),
            EngineListener.NONE,
            clock,
            null);
    step =
        new PollStep(
            repository,
            transitions,
            outcomes,
            Providers.single(client, null, null),
            jobs,
            SolveSettings.defaults(),
            EngineListener.NONE,
            clock);
    PushWatch watch = new PushWatch("https://node.example/captchaai/pingback", clock);
    watch.answered(true); // an answer came by push on this worker
    stepWhilePushesArrive =
        new PollStep(
            repository,
            transitions,
            new TaskOutcomes(
                repository,
                transitions,
                new SlotHandoff(gate, jobs, transitions),
                Providers.single(null, new Breaker(dataSource, schema, "fingerprint"), null),
                jobs,
                SolveSettings.defaults(),
                EngineListener.NONE,
                clock,
                watch),
            Providers.single(client, null, null),
            jobs,
            SolveSettings.defaults(),
            EngineListener.NONE,
            clock);
  }

  @AfterAll
  static void stop() {
    dataSource.close();
    sim.close();
  }

  @BeforeEach
  void emptyTablesAndTheClockAtNow() {
    db.update("DELETE FROM captchajobs.solve");
    db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = NULL, node = NULL, lease_until = NULL,"
            + " phantom = false");
    db.update("DELETE FROM captchajobs.cj_jobrunr_jobs");
    clock.now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
  }

  /** A SUBMITTED solve (submission 1) on the task, submitted {@code ago} before the clock. */
  static UUID submitted(String taskId, Duration ago) {
    UUID id = UUID.randomUUID();
    db.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
            + " task_id, submitted_at, submits) VALUES (?, ?, 'TURNSTILE', '{}'::jsonb,"
            + " repeat('0', 64), 'SUBMITTED', ?, ?, 1)",
        id,
        "poll-" + id,
        taskId,
        clock.now.minus(ago));
    db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = ?, node = 'poll-node', acquired_at = now(),"
            + " lease_until = now() + interval '10 minutes' WHERE slot_no = 0",
        id);
    return id;
  }

  static String column(UUID id, String name) {
    return db.queryOne(
            "SELECT " + name + "::text FROM captchajobs.solve WHERE id = ?",
            rs -> new String[] {rs.getString(1)},
            id)
        .orElseThrow()[0];
  }

  static String pollRecord(UUID id, int pollNo) {
    return db.queryOne(
            "SELECT outcome || ' at ' || (extract(epoch FROM called_at) * 1000)::bigint"
                + " FROM captchajobs.poll WHERE solve_id = ? AND submit_no = 1 AND poll_no = ?",
            rs -> rs.getString(1),
            id,
            pollNo)
        .orElse("none");
  }

  static String jobJson(UUID jobId) {
    return db.queryOne(
            "SELECT jobasjson FROM captchajobs.cj_jobrunr_jobs WHERE id = ?",
            rs -> rs.getString(1),
            jobId.toString())
        .orElse("none");
  }

  static int jobsNaming(UUID solveId, String text) {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?"
                + " AND jobasjson LIKE ?",
            rs -> rs.getInt(1),
            "%" + solveId + "%",
            "%" + text + "%")
        .orElseThrow();
  }

  @Test
  void aTaskNotReadyIsRecordedAtTheClocksInstantAndTheNextPollIsMeantFiveSecondsAndTheMarginLater()
      throws Exception {
    String task = client.submit(RecaptchaV2Task.of("6Le-never-ready", "https://a.example/"));
    UUID id = submitted(task, Duration.ofSeconds(20));
    Instant now = clock.now;

    Step next = step.poll(new PollJobRequest(id, 1, 1, now.toEpochMilli()), null);

    assertThat(next).isEqualTo(Step.DONE);
    assertThat(pollRecord(id, 1)).isEqualTo("CAPCHA_NOT_READY at " + now.toEpochMilli());
    assertThat(column(id, "polls")).isEqualTo("1");
    UUID nextPoll = SolveJobs.pollJobId(id, 1, 2);
    assertThat(column(id, "job_id")).isEqualTo(nextPoll.toString());
    long intended =
        now.plus(SolveSettings.DEFAULT_POLL_INTERVAL)
            .plus(CallPacing.SPACING_MARGIN)
            .toEpochMilli();
    assertThat(jobJson(nextPoll)).contains(String.valueOf(intended));
  }

  @Test
  void whilePushesArriveATaskNotReadyIsPolledNextSixPollStepsLater() throws Exception {
    String task = client.submit(RecaptchaV2Task.of("6Le-never-ready", "https://a.example/"));
    UUID id = submitted(task, Duration.ofSeconds(20));
    Instant now = clock.now;

    Step next = stepWhilePushesArrive.poll(new PollJobRequest(id, 1, 1, now.toEpochMilli()), null);

    assertThat(next).isEqualTo(Step.DONE);
    UUID nextPoll = SolveJobs.pollJobId(id, 1, 2);
    assertThat(column(id, "job_id")).isEqualTo(nextPoll.toString());
    long intended =
        now.plus(SolveSettings.DEFAULT_POLL_INTERVAL.multipliedBy(6))
            .plus(CallPacing.SPACING_MARGIN)
            .toEpochMilli();
    assertThat(jobJson(nextPoll)).contains(String.valueOf(intended));
  }

  @Test
  void aPollThatFindsTheTaskStillNotReadyAtTheSolveTimeoutGivesItUpAndSubmitsAfresh()
      throws Exception {
    String task = client.submit(RecaptchaV2Task.of("6Le-never-ready", "https://a.example/"));
    // the next poll (5 s and the margin later) would come after the 120 s solve timeout
    UUID id = submitted(task, SolveSettings.DEFAULT_SOLVE_TIMEOUT.minusSeconds(3));

    Step next = step.poll(new PollJobRequest(id, 1, 7, clock.now.toEpochMilli()), null);

    assertThat(next).isEqualTo(Step.DONE);
    assertThat(column(id, "status")).isEqualTo("QUEUED");
    assertThat(column(id, "task_id")).isNull();
    assertThat(column(id, "error_code")).isEqualTo(TaskOutcomes.TIMEOUT);
    // the provider may still work on the old task: its slot stays taken by a phantom
    assertThat(
            db.queryOne(
                "SELECT phantom FROM captchajobs.gate_slot WHERE slot_no = 0",
                rs -> rs.getBoolean(1)))
        .hasValue(true);
    assertThat(jobsNaming(id, "SubmitJobRequest")).isEqualTo(1);
    assertThat(jobJson(SolveJobs.pollJobId(id, 1, 8))).isEqualTo("none");
  }

  @Test
  void aTaskThatIsReadyIsStoredAndItsPollRecordedAsSolved() throws Exception {
    String task = client.submit(TurnstileTask.of("0x4AAAAAAA-ready", "https://a.example/"));
    UUID id = submitted(task, Duration.ofSeconds(10));

    Step next = step.poll(new PollJobRequest(id, 1, 1, clock.now.toEpochMilli()), null);

    assertThat(next).isEqualTo(Step.DONE);
    assertThat(column(id, "status")).isEqualTo("SOLVED");
    assertThat(column(id, "token")).isNotBlank();
    assertThat(pollRecord(id, 1)).isEqualTo("SOLVED at " + clock.now.toEpochMilli());
    assertThat(
            db.queryOne(
                "SELECT solve_id IS NULL FROM captchajobs.gate_slot WHERE slot_no = 0",
                rs -> rs.getBoolean(1)))
        .hasValue(true);
  }

  @Test
  void aPollOfAnEarlierSubmissionCallsNothingAndChangesNothing() throws Exception {
    String task = client.submit(TurnstileTask.of("0x4AAAAAAA-stale", "https://a.example/"));
    UUID id = submitted(task, Duration.ofSeconds(10));
    db.update("UPDATE captchajobs.solve SET submits = 2 WHERE id = ?", id);
    int requestsBefore = sim.requests().size();

    Step next = step.poll(new PollJobRequest(id, 1, 1, clock.now.toEpochMilli()), null);

    assertThat(next).isEqualTo(Step.DONE);
    assertThat(sim.requests()).hasSize(requestsBefore);
    assertThat(column(id, "status")).isEqualTo("SUBMITTED");
    assertThat(pollRecord(id, 1)).isEqualTo("none");
  }
}
