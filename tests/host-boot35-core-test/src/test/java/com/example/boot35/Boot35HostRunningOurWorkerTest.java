package com.example.boot35;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.internal.node.EngineParts;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SimulatorProcess;
import com.example.hostcontract.Hosts;
import com.example.hostcontract.RecordOrder;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.scheduling.BackgroundJobRequest;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One host with {@code captchajobs.worker.enabled=true} on the host's own (older) JobRunr: the Boot
 * 3.5 host's CaptchaJobs bean runs a worker in its process, on the JobRunr 8.4 library the host
 * brought, beside the host's own JobRunr server, on a fresh database. Boot builds our bean before
 * the host's JobRunr storage here, so this is also the in-process form of "worker first".
 */
class Boot35HostRunningOurWorkerTest {

  static final String KEY = "b35inhost0b35inhost0b35inhost0b3";
  static final String WORKER = "boot35-in-host";

  static SimulatorProcess simulator;
  static ConfigurableApplicationContext host;
  static JdbcTemplate jdbc;

  @BeforeAll
  static void startTheHostWithOurWorkerInside() {
    simulator = SimulatorProcess.start(KEY, 2, 0.1);
    host =
        Hosts.start(
            Boot35HostApplication.class,
            EmbeddedPostgresSupport.newDatabase(),
            Map.of(
                "captchajobs.worker.enabled",
                "true",
                "captchajobs.worker.name",
                WORKER,
                "captchaai.api-key",
                KEY,
                "captchaai.base-url",
                simulator.baseUrl(),
                "captchaai.threads",
                "2"));
    jdbc = new JdbcTemplate(host.getBean(DataSource.class));
  }

  @AfterAll
  static void stop() throws Exception {
    Hosts.closeInOrder(host, simulator);
  }

  @Test
  void ourWorkerRunsOnTheHostsJobRunr84OnAServerOfItsOwn() {
    CaptchaJobs captchaJobs = host.getBean(CaptchaJobs.class);

    assertThat(Hosts.jobRunrVersion()).isEqualTo("8.4.0");
    assertThat(captchaJobs.runsWorker()).isTrue();
    assertThat(EngineParts.find(captchaJobs, BackgroundJobServer.class).orElseThrow())
        .isNotSameAs(host.getBean(BackgroundJobServer.class));
  }

  @Test
  void ourJobRunrTablesCameFirstInThisProcessAndTheHostsJobRunrStillCreatedItsOwn() {
    // table OIDs grow with creation order on a fresh database
    assertThat(
            jdbc.queryForObject(
                "SELECT 'captchajobs.cj_jobrunr_jobs'::regclass::oid::bigint"
                    + " < 'public.jobrunr_jobs'::regclass::oid::bigint",
                Boolean.class))
        .as(
            "the in-process form of worker first: our bean made its tables before the host's JobRunr")
        .isTrue();
    assertThat(host.getEnvironment().getProperty("jobrunr.database.table-prefix")).isNull();
  }

  @Test
  void aSolveCompletesInTheHostWithOurJobsOnlyInOurTables() throws Exception {
    Solves solves = host.getBean(Solves.class);
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile("b35-inhost-1", Hosts.SITEKEY, "https://shop.test/in-1"));

    assertThat(solves.await(id, Duration.ofSeconds(90)).get().status())
        .isEqualTo(SolveStatus.SOLVED);
    assertThat(solves.claim(id).token()).isNotBlank();
    assertThat(simulator.acceptedSubmits(KEY)).isEqualTo(1);
    String ofTheSolve = "%" + id + "%";
    assertThat(
            count(
                "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?",
                ofTheSolve))
        .isPositive();
    assertThat(
            count(
                "SELECT count(*) FROM public.jobrunr_jobs WHERE jobasjson LIKE ?",
                "%com.captchajobs%"))
        .isZero();
    Hosts.assertOurJobsRanOnlyOn(jdbc, WORKER);
    assertThat(
            jdbc.queryForList("SELECT name FROM public.jobrunr_backgroundjobservers", String.class))
        .isNotEmpty()
        .doesNotContain(WORKER);
  }

  @Test
  void theHostsOwnJobsStillRunOnItsOwnServerInItsOwnTables() {
    UUID viaBean =
        host.getBean(JobRequestScheduler.class).enqueue(new RecordOrder("in-host-1")).asUUID();
    UUID viaFacade = BackgroundJobRequest.enqueue(new RecordOrder("in-host-2")).asUUID();
    StorageProvider hostStorage = host.getBean(StorageProvider.class);

    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                hostStorage.getJobById(viaBean).getState() == StateName.SUCCEEDED
                    && hostStorage.getJobById(viaFacade).getState() == StateName.SUCCEEDED);
    assertThat(
            count(
                "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE id IN (?, ?)",
                viaBean.toString(),
                viaFacade.toString()))
        .isZero();
    assertThat(
            count(
                "SELECT count(*) FROM public.host_order WHERE reference IN ('in-host-1', 'in-host-2')"))
        .isEqualTo(2);
  }

  private static long count(String sql, Object... args) {
    return jdbc.queryForObject(sql, Long.class, args);
  }
}
