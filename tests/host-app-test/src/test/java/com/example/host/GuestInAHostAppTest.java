package com.example.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerProcess;
import com.example.hostcontract.Hosts;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.scheduling.BackgroundJobRequest;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The guest rules: a host with JobRunr, Flyway and Actuator of its own adds the starter and a
 * datasource. A worker node (the real jar, in its own JVM) was started on the fresh database first,
 * so our schema exists before the host's Flyway looks at the database.
 */
class GuestInAHostAppTest {

  static final String KEY = "hostapp0hostapp0hostapp0hostapp0";
  static final String WORKER = "host-test-worker";

  static CaptchaAiSimulator simulator;
  static WorkerProcess worker;
  static ConfigurableApplicationContext host;
  static JdbcTemplate jdbc;

  @BeforeAll
  static void startHostThenWorker() {
    simulator = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.1).build().start();
    String url = EmbeddedPostgresSupport.newDatabase();
    host =
        new SpringApplicationBuilder(HostApplication.class).properties(hostProperties(url)).run();
    jdbc = new JdbcTemplate(host.getBean(javax.sql.DataSource.class));
    worker =
        WorkerProcess.startJar(
                Hosts.WORKER_JAR,
                WORKER,
                url,
                simulator.baseUrl(),
                KEY,
                Map.of("captchaai.threads", "5", "captchaai.first-poll-wait.TURNSTILE", "1s"))
            .awaitUp();
  }

  /** The host's own settings ({@link Hosts#properties}), with its own retry settings. */
  static Map<String, Object> hostProperties(String url) {
    Map<String, Object> props = Hosts.properties(url);
    props.put("jobrunr.jobs.default-number-of-retries", "1");
    props.put("jobrunr.jobs.retry-back-off-time-seed", "1");
    return props;
  }

  @AfterAll
  static void stop() throws Exception {
    Hosts.closeInOrder(host, worker, simulator);
  }

  @Test
  void theHostsFailingJobEndsFailedAfterExactlyTwoAttemptsAsItsOwnRetrySettingSays() {
    UUID id =
        host.getBean(JobRequestScheduler.class).enqueue(new HostJobRequest("order-1")).asUUID();
    StorageProvider hostStorage = host.getBean(StorageProvider.class);

    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> hostStorage.getJobById(id).getState() == StateName.FAILED);
    Job job = hostStorage.getJobById(id);
    assertThat(job.getJobStates().stream().filter(FailedState.class::isInstance)).hasSize(2);
  }

  @Test
  void theHostsStaticJobRunrFacadeStillCreatesJobsInTheHostsOwnTables() {
    long before = count("SELECT count(*) FROM public.jobrunr_jobs");
    BackgroundJobRequest.enqueue(new HostJobRequest("via-facade"));

    assertThat(count("SELECT count(*) FROM public.jobrunr_jobs")).isEqualTo(before + 1);
  }

  @Test
  void theHostsActuatorShowsExactlyWhatItDidBefore() throws Exception {
    assertThat(Hosts.statusOf(host, "/actuator/metrics")).isEqualTo(404);
    assertThat(Hosts.statusOf(host, "/actuator/breaker")).isEqualTo(404);
    assertThat(Hosts.statusOf(host, "/actuator/health")).isEqualTo(200);
  }

  @Test
  void aSolveEnqueuedThroughTheHostsSolvesIsSolvedByTheSeparateWorkerNode() throws Exception {
    Solves solves = host.getBean(Solves.class);
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile(
                "host-solve-1",
                "0x4AAAAAAADnPIDROrmt1Wwj",
                "https://shop.example.test/host-solve-1"));

    SolveStatusView view = solves.await(id, Duration.ofSeconds(60)).get();

    assertThat(view.status()).isEqualTo(SolveStatus.SOLVED);
    assertThat(solves.claim(id).token()).isNotBlank();
    assertThat(simulator.stats(KEY).acceptedSubmits()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void theHostsJobRunrServerNeverRunsACaptchaJobsJobAndOursNeverRunsAHostJob() throws Exception {
    Solves solves = host.getBean(Solves.class);
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile(
                "host-solve-2",
                "0x4AAAAAAADnPIDROrmt1Wwj",
                "https://shop.example.test/host-solve-2"));
    solves.await(id, Duration.ofSeconds(60)).get();

    assertThat(
            count(
                "SELECT count(*) FROM public.jobrunr_jobs WHERE jobasjson LIKE '%com.captchajobs%'"))
        .isZero();
    assertThat(
            count(
                "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE '%com.example.host%'"))
        .isZero();
    // The solve ran on our jobs only: at least its submit job (a first poll due soon enough runs
    // inside it), every one of them SUCCEEDED in our own tables.
    String ofTheSolve = "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?";
    String idPattern = "%" + id + "%";
    long jobsOfTheSolve = jdbc.queryForObject(ofTheSolve, Long.class, idPattern);
    assertThat(jobsOfTheSolve).isPositive();
    // The job that stored the token ends a moment after the solve is SOLVED.
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        jdbc.queryForObject(
                            ofTheSolve + " AND state = 'SUCCEEDED'", Long.class, idPattern))
                    .isEqualTo(jobsOfTheSolve));
    Hosts.assertOurJobsRanOnlyOn(jdbc, WORKER);
    Hosts.assertTheHostsOneJobRunrServerIsItsOwn(host, WORKER);
  }

  @Test
  void theHostsFlywayHistoryHoldsOnlyItsOwnMigrationAndOurTablesAreInOurSchema() {
    Hosts.assertTheHostsFlywayHistoryHoldsOnlyItsOwnMigration(jdbc);
    assertThat(
            jdbc.queryForList(
                "SELECT table_name FROM information_schema.tables"
                    + " WHERE table_schema = 'public' AND table_name LIKE 'captchajobs%'",
                String.class))
        .isEmpty();
    assertThat(count("SELECT count(*) FROM captchajobs.schema_history")).isPositive();
  }

  private static long count(String sql) {
    return jdbc.queryForObject(sql, Long.class);
  }
}
