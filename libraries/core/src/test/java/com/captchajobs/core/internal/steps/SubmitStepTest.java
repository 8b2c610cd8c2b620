package com.captchajobs.core.internal.steps;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.engine.SubmitJob;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.jobrunr.JobsReady;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.time.FirstPollWaits;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.RequestRecord;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The submit step on real PostgreSQL, JobRunr storage (no server) and the simulator over HTTP, with
 * the engine's clock stopped ({@link PollStepTest.StoppedClock}): the task id is committed at the
 * clock's instant and the first poll is meant exactly the type's first-poll wait later; nothing
 * calls in.php without the slot, the lock and a closed breaker.
 */
class SubmitStepTest {

  static final String KEY = "submitStepKeySUBMITSTEPkey123456";

  static CaptchaAiSimulator sim;
  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;
  static Breaker breaker;
  static final PollStepTest.StoppedClock clock = new PollStepTest.StoppedClock();
  static final SolveSettings settings =
      SolveSettings.builder().firstPollWait(CaptchaType.TURNSTILE, Duration.ofSeconds(5)).build();
  static FirstPollWaits firstPollWaits;
  static SubmitStep step;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 10).build().start();
    CaptchaAiClient client = CaptchaAiClient.builder().apiKey(KEY).baseUrl(sim.baseUrl()).build();
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
            settings.pollLead(),
            settings.transientRetries(),
            JobsReady.NONE);
    FleetGate gate = new FleetGate(dataSource, schema, Duration.ofMinutes(10), "submit-node");
    gate.resize(1);
    breaker = new Breaker(dataSource, schema, "fingerprint");
    SlotHandoff handoff = new SlotHandoff(gate, jobs, transitions);
    TaskOutcomes outcomes =
        new TaskOutcomes(
            repository,
            transitions,
            handoff,
            Providers.single(null, breaker, null),
            jobs,
            settings,
            EngineListener.NONE,
            clock,
            null);
    // no solved samples: the configured wait, nothing learned
    firstPollWaits = new FirstPollWaits(settings, (type, n) -> List.of(), clock);
    step =
        new SubmitStep(
            repository,
            transitions,
            gate,
            handoff,
            outcomes,
            Providers.single(client, breaker, null),
            jobs,
            firstPollWaits,
            settings,
            EngineListener.NONE,
            clock,
            null);
  }

  @AfterAll
  static void stop() {
    dataSource.close();
    sim.close();
  }

  @BeforeEach
  void emptyTablesAClosedBreakerAndTheClockAtNow() {
    db.update("DELETE FROM captchajobs.solve");
    db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = NULL, node = NULL, lease_until = NULL,"
            + " phantom = false");
    db.update("DELETE FROM captchajobs.cj_jobrunr_jobs");
    breaker.closeBreaker();
    clock.now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
  }

  /** A QUEUED Turnstile solve; holding the only slot when {@code withSlot}. */
  static UUID queued(boolean withSlot) {
    UUID id = UUID.randomUUID();
    db.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status)"
            + " VALUES (?, ?, 'TURNSTILE',"
            + " '{\"sitekey\":\"0x4AAAAAAAB\",\"pageUrl\":\"https://a.example/\"}'::jsonb,"
            + " repeat('0', 64), 'QUEUED')",
        id,
        "submit-" + id);
    if (withSlot) {
      holdSlot(id);
    }
    return id;
  }

  static void holdSlot(UUID id) {
    db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = ?, node = 'submit-node', acquired_at = now(),"
            + " lease_until = now() + interval '10 minutes' WHERE slot_no = 0",
        id);
  }

  static String column(UUID id, String name) {
    return db.queryOne(
            "SELECT " + name + "::text FROM captchajobs.solve WHERE id = ?",
            rs -> new String[] {rs.getString(1)},
            id)
        .orElseThrow()[0];
  }

  static long epochMilli(UUID id, String name) {
    return db.queryOne(
            "SELECT (extract(epoch FROM "
                + name
                + ") * 1000)::bigint FROM captchajobs.solve"
                + " WHERE id = ?",
            rs -> rs.getLong(1),
            id)
        .orElseThrow();
  }

  static String jobJson(UUID jobId) {
    return db.queryOne(
            "SELECT jobasjson FROM captchajobs.cj_jobrunr_jobs WHERE id = ?",
            rs -> rs.getString(1),
            jobId.toString())
        .orElse("none");
  }

  static long inPhpCalls() {
    return sim.requests().stream().filter(r -> RequestRecord.IN.equals(r.endpoint())).count();
  }

  @Test
  void theTaskIdIsCommittedAtTheClocksInstantAndTheFirstPollJobIsMeantTheFirstPollWaitLater() {
    UUID id = queued(true);
    Duration firstWait = firstPollWaits.waitFor(CaptchaType.TURNSTILE);

    Step next = step.submit(id, 0, null, false);

    assertThat(next).isEqualTo(Step.DONE);
    assertThat(column(id, "status")).isEqualTo("SUBMITTED");
    assertThat(column(id, "task_id")).isNotBlank();
    assertThat(column(id, "submits")).isEqualTo("1");
    assertThat(column(id, "submit_lock_until")).isNull();
    assertThat(epochMilli(id, "submitted_at")).isEqualTo(clock.now.toEpochMilli());
    UUID firstPoll = SolveJobs.pollJobId(id, 1, 1);
    assertThat(column(id, "job_id")).isEqualTo(firstPoll.toString());
    assertThat(jobJson(firstPoll))
        .contains(String.valueOf(clock.now.plus(firstWait).toEpochMilli()));
  }

  @Test
  void aRunningJobWhoseFirstPollIsDueWithinTheLeadMakesItItself() {
    UUID id = queued(true);
    UUID running = UUID.randomUUID();
    Duration firstWait = firstPollWaits.waitFor(CaptchaType.TURNSTILE);
    assertThat(firstWait).isLessThanOrEqualTo(settings.pollLead().plus(settings.pollInterval()));

    Step next = step.submit(id, 0, running, false);

    assertThat(next).isEqualTo(new Step.FirstPoll(id, 1, clock.now.plus(firstWait)));
    assertThat(column(id, "job_id")).isEqualTo(running.toString());
    assertThat(jobJson(SolveJobs.pollJobId(id, 1, 1))).isEqualTo("none");
  }

  @Test
  void anOpenBreakerFailsTheSolveWithItsCodeAndInPhpIsNotCalled() {
    UUID id = queued(true);
    breaker.open("ERROR_WRONG_USER_KEY", "test");
    long before = inPhpCalls();

    Step next = step.submit(id, 0, null, false);

    assertThat(next).isEqualTo(new Step.Failed(id, "ERROR_WRONG_USER_KEY", ErrorClass.CREDENTIAL));
    assertThat(column(id, "status")).isEqualTo("FAILED");
    assertThat(inPhpCalls()).isEqualTo(before);
  }

  @Test
  void aSolveWithoutASlotWaitsForOneAndInPhpIsNotCalled() {
    UUID other = queued(true);
    UUID id = queued(false);
    long before = inPhpCalls();

    Step next = step.submit(id, 0, null, false);

    assertThat(next).isEqualTo(Step.DONE);
    assertThat(column(id, "status")).isEqualTo("WAITING_FOR_THREAD");
    assertThat(column(id, "submit_lock_until")).isNull();
    assertThat(column(other, "status")).isEqualTo("QUEUED");
    assertThat(inPhpCalls()).isEqualTo(before);
  }

  @Test
  void aSecondRunWhileTheFirstHoldsTheSubmitLockDoesNotCallInPhp() {
    UUID id = queued(true);
    db.update(
        "UPDATE captchajobs.solve SET submit_lock_until = now() + interval '1 minute' WHERE id = ?",
        id);
    long before = inPhpCalls();

    Step next = step.submit(id, 0, null, false);

    // it holds a slot, so it tries again shortly rather than leave the slot idle
    assertThat(next).isInstanceOf(Step.Retry.class);
    assertThat(((Step.Retry) next).cause()).isInstanceOf(SubmitJob.SubmitBusyException.class);
    assertThat(column(id, "status")).isEqualTo("QUEUED");
    assertThat(inPhpCalls()).isEqualTo(before);
  }

  @Test
  void aStoredTaskIsResumedByAPollAtItsFirstPollTimeWithoutANewSubmission() {
    UUID id = queued(true);
    Instant submittedAt = clock.now.minusSeconds(2);
    db.update(
        "UPDATE captchajobs.solve SET status = 'SUBMITTED', task_id = '4242', submits = 1,"
            + " submitted_at = ? WHERE id = ?",
        submittedAt,
        id);
    long before = inPhpCalls();

    Step next = step.submit(id, 0, null, false);

    assertThat(next).isEqualTo(Step.DONE);
    assertThat(inPhpCalls()).isEqualTo(before);
    assertThat(column(id, "task_id")).isEqualTo("4242");
    UUID pollJob = UUID.fromString(column(id, "job_id"));
    long intended = submittedAt.plus(firstPollWaits.waitFor(CaptchaType.TURNSTILE)).toEpochMilli();
    assertThat(jobJson(pollJob)).contains(String.valueOf(intended)).contains("PollJobRequest");
  }
}
