package com.captchajobs.core.internal.steps;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaTask;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.engine.PollJobRequest;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.jobrunr.JobsReady;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.notify.PushNotice;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.providers.Providers;
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
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SolveLife} on real PostgreSQL, JobRunr's storage (no server: the jobs it creates are read,
 * never run) and the simulator over HTTP, with the engine's clock stopped ({@link
 * PollStepTest.StoppedClock}) and one slot: a poll job whose token frees the slot submits the
 * waiting solve in its own run when the node has a thread to spare (else that solve gets a submit
 * job of its own), and a carried solve's permanent failure gets a job of its own that reports it
 * while the running job ends with its own solve's outcome. A fetch a push rang for, made on the
 * worker's own executor, carries the waiting solve's in.php in its thread too, when the executor
 * may spare it.
 */
class SolveLifeTest {

  static final String KEY = "solveLifeKeySOLVELIFEkey12345678";
  static final Map<String, String> PARAMS =
      Map.of("sitekey", "0x4AAAAAAAB", "pageUrl", "https://a.example/");

  static CaptchaAiSimulator sim;
  static CaptchaAiClient client;
  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;
  static Breaker breaker;
  static final PollStepTest.StoppedClock clock = new PollStepTest.StoppedClock();
  // a first poll later than the poll lead: a carried solve's first poll is a job of its own
  static final SolveSettings settings =
      SolveSettings.builder().firstPollWait(CaptchaType.TURNSTILE, Duration.ofSeconds(30)).build();
  static SolveLife life;

  /** This node's JobRunr server, as the fetches on its own executor name it. */
  static final UUID SERVER = UUID.randomUUID();

  /** Whether this node has a worker thread to spare, as its dispatcher would tell. */
  static volatile boolean threadToSpare;

  static final JobsReady NODE =
      new JobsReady() {
        @Override
        public void submitReady() {}

        @Override
        public void pollReady() {}

        @Override
        public boolean threadToSpare() {
          return threadToSpare;
        }
      };

  @BeforeAll
  static void start() {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 10)
            .solveTime("turnstile", Duration.ZERO, Duration.ZERO)
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
            settings.pollLead(),
            settings.transientRetries(),
            NODE);
    FleetGate gate = new FleetGate(dataSource, schema, Duration.ofMinutes(10), "life-node");
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
    SubmitStep submitStep =
        new SubmitStep(
            repository,
            transitions,
            gate,
            handoff,
            outcomes,
            Providers.single(client, breaker, null),
            jobs,
            new FirstPollWaits(settings, (type, n) -> List.of(), clock),
            settings,
            EngineListener.NONE,
            clock,
            null);
    PollStep pollStep =
        new PollStep(
            repository,
            transitions,
            outcomes,
            Providers.single(client, null, null),
            jobs,
            settings,
            EngineListener.NONE,
            clock);
    life = new SolveLife(submitStep, pollStep, repository, transitions, jobs, clock, () -> SERVER);
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
    threadToSpare = true;
  }

  /** A solve submitted to the simulator (its answer ready at once), holding the only slot. */
  static UUID submittedHoldingTheSlot() {
    UUID id = UUID.randomUUID();
    String taskId = client.submit(CaptchaTask.of(CaptchaType.TURNSTILE, PARAMS));
    db.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
            + " task_id, submitted_at, submits) VALUES (?, ?, 'TURNSTILE',"
            + " '{\"sitekey\":\"0x4AAAAAAAB\",\"pageUrl\":\"https://a.example/\"}'::jsonb,"
            + " repeat('0', 64), 'SUBMITTED', ?, ?, 1)",
        id,
        "life-" + id,
        taskId,
        clock.now.minusSeconds(20));
    db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = ?, node = 'life-node', acquired_at = now(),"
            + " lease_until = now() + interval '10 minutes' WHERE slot_no = 0",
        id);
    return id;
  }

  /** A solve waiting for a slot. */
  static UUID waiting() {
    UUID id = UUID.randomUUID();
    db.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
            + " waiting_since) VALUES (?, ?, 'TURNSTILE',"
            + " '{\"sitekey\":\"0x4AAAAAAAB\",\"pageUrl\":\"https://a.example/\"}'::jsonb,"
            + " repeat('0', 64), 'WAITING_FOR_THREAD', now())",
        id,
        "waiting-" + id);
    return id;
  }

  static String column(UUID id, String name) {
    return db.queryOne(
            "SELECT " + name + "::text FROM captchajobs.solve WHERE id = ?",
            rs -> new String[] {rs.getString(1)},
            id)
        .orElseThrow()[0];
  }

  static boolean jobExists(UUID jobId) {
    return db.queryOne(
            "SELECT 1 FROM captchajobs.cj_jobrunr_jobs WHERE id = ?",
            rs -> rs.getInt(1),
            jobId.toString())
        .isPresent();
  }

  static long inPhpCalls() {
    return sim.requests().stream().filter(r -> RequestRecord.IN.equals(r.endpoint())).count();
  }

  static PollJobRequest firstPollDue(UUID id) {
    return new PollJobRequest(id, 1, 1, clock.now.minusSeconds(1).toEpochMilli());
  }

  @Test
  void aPollJobWhoseTokenFreesTheSlotSubmitsTheWaitingSolveInItsOwnRun() throws Exception {
    UUID own = submittedHoldingTheSlot();
    UUID next = waiting();
    UUID runningJob = UUID.randomUUID();
    long inPhpBefore = inPhpCalls();

    life.pollJob(firstPollDue(own), runningJob);

    assertThat(column(own, "status")).isEqualTo("SOLVED");
    assertThat(column(next, "status")).isEqualTo("SUBMITTED");
    assertThat(column(next, "task_id")).isNotBlank();
    assertThat(inPhpCalls()).isEqualTo(inPhpBefore + 1);
    // no submit job of its own was needed; its first poll is one, 30 s on
    assertThat(jobExists(SolveJobs.enqueueJobId(next))).isFalse();
    UUID pollJob = UUID.fromString(column(next, "job_id"));
    assertThat(pollJob).isNotEqualTo(runningJob);
    assertThat(jobExists(pollJob)).isTrue();
    assertThat(
            db.queryOne(
                    "SELECT solve_id::text FROM captchajobs.gate_slot WHERE slot_no = 0",
                    rs -> rs.getString(1))
                .orElseThrow())
        .isEqualTo(next.toString());
  }

  @Test
  void aCarriedSolveThatFailsForGoodGetsAJobThatReportsItAndTheRunningJobKeepsItsOwnOutcome()
      throws Exception {
    UUID own = submittedHoldingTheSlot();
    UUID next = waiting();
    UUID runningJob = UUID.randomUUID();
    long inPhpBefore = inPhpCalls();
    // the key was refused meanwhile: the carried submit fails for good without calling in.php
    breaker.open("ERROR_WRONG_USER_KEY", "test");

    life.pollJob(firstPollDue(own), runningJob); // does not throw: its own solve was solved

    assertThat(column(own, "status")).isEqualTo("SOLVED");
    assertThat(column(next, "status")).isEqualTo("FAILED");
    assertThat(column(next, "error_code")).isEqualTo("ERROR_WRONG_USER_KEY");
    assertThat(inPhpCalls()).isEqualTo(inPhpBefore);
    UUID report = SolveLife.failureReportJob(next);
    assertThat(column(next, "job_id")).isEqualTo(report.toString());
    assertThat(jobExists(report)).isTrue();
  }

  @Test
  void withoutAThreadToSpareTheHandedSolveGetsASubmitJobOfItsOwnInsteadOfBeingCarried()
      throws Exception {
    threadToSpare = false;
    UUID own = submittedHoldingTheSlot();
    UUID next = waiting();
    long inPhpBefore = inPhpCalls();

    life.pollJob(firstPollDue(own), UUID.randomUUID());

    assertThat(column(own, "status")).isEqualTo("SOLVED");
    assertThat(column(next, "status")).isEqualTo("QUEUED");
    assertThat(inPhpCalls()).isEqualTo(inPhpBefore);
    assertThat(jobExists(UUID.fromString(column(next, "job_id")))).isTrue();
  }

  @Test
  void aPollJobWithNoSolveWaitingCarriesNothingOn() throws Exception {
    UUID own = submittedHoldingTheSlot();
    long inPhpBefore = inPhpCalls();

    life.pollJob(firstPollDue(own), UUID.randomUUID());

    assertThat(column(own, "status")).isEqualTo("SOLVED");
    assertThat(inPhpCalls()).isEqualTo(inPhpBefore);
    assertThat(
            db.queryOne(
                    "SELECT count(*) FROM captchajobs.gate_slot WHERE solve_id IS NOT NULL",
                    rs -> rs.getLong(1))
                .orElseThrow())
        .isZero();
  }

  /** The notice of a push for the solve's first submission, before any call on its task. */
  static PushNotice pushFor(UUID id) {
    return new PushNotice(id, 1, 0, 0, clock.now.minusSeconds(1).toEpochMilli());
  }

  @Test
  void aPushedFetchOnTheWorkersExecutorSubmitsTheWaitingSolveInItsOwnThread() throws Exception {
    UUID own = submittedHoldingTheSlot();
    UUID next = waiting();
    long inPhpBefore = inPhpCalls();

    assertThat(life.fetchPushed(pushFor(own), true)).isEmpty();

    assertThat(column(own, "status")).isEqualTo("SOLVED");
    assertThat(column(next, "status")).isEqualTo("SUBMITTED");
    assertThat(column(next, "task_id")).isNotBlank();
    assertThat(inPhpCalls()).isEqualTo(inPhpBefore + 1);
    // no submit job: the old code gave the handed solve one; its first poll is a job, 30 s on
    assertThat(submitJobs()).isZero();
    assertThat(jobExists(UUID.fromString(column(next, "job_id")))).isTrue();
  }

  @Test
  void aPushedFetchThatMayNotCarryGivesTheHandedSolveASubmitJobOfItsOwn() throws Exception {
    UUID own = submittedHoldingTheSlot();
    UUID next = waiting();
    long inPhpBefore = inPhpCalls();

    life.fetchPushed(pushFor(own), false);

    assertThat(column(own, "status")).isEqualTo("SOLVED");
    assertThat(column(next, "status")).isEqualTo("QUEUED");
    assertThat(inPhpCalls()).isEqualTo(inPhpBefore);
    assertThat(submitJobs()).isEqualTo(1);
    assertThat(column(next, "job_id")).isNotEqualTo(SERVER.toString());
  }

  static long submitJobs() {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE '%\"Submit %'",
            rs -> rs.getLong(1))
        .orElseThrow();
  }
}
