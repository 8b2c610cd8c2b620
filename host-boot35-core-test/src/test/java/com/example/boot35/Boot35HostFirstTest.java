package com.example.boot35;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.SolveStatus;
import com.captchajobs.core.Solves;
import com.captchajobs.core.TokenAlreadyClaimedException;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SimulatorProcess;
import com.captchajobs.worker.testing.WorkerProcess;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Boot 3.5 + JobRunr 8.4 host with the plain-Java core, host first: it meets a fresh database, then
 * a worker node (the real jar, in its own JVM) joins it.
 */
class Boot35HostFirstTest {

  static final String KEY = "b35first0b35first0b35first0b35fi";
  static final String WORKER = "boot35-first-worker";

  static SimulatorProcess simulator;
  static ConfigurableApplicationContext host;
  static WorkerProcess worker;
  static JdbcTemplate jdbc;

  @BeforeAll
  static void startTheHostThenAWorkerNode() {
    simulator = SimulatorProcess.start(KEY, 2, 0.1);
    String url = EmbeddedPostgresSupport.newDatabase();
    host = Boot35Host.start(url, Map.of());
    jdbc = new JdbcTemplate(host.getBean(DataSource.class));
    worker =
        WorkerProcess.startJar(
                Boot35Host.WORKER_JAR,
                WORKER,
                url,
                simulator.baseUrl(),
                KEY,
                Map.of("captchaai.threads", "2", "captchaai.first-poll-wait.TURNSTILE", "1s"))
            .awaitUp();
  }

  @AfterAll
  static void stop() {
    if (worker != null) {
      worker.close();
    }
    if (host != null) {
      host.close();
    }
    simulator.close();
  }

  @Test
  void theHostKeepsItsOwnJobRunr84AndItsCaptchaJobsBeanOnlyEnqueues() {
    assertThat(Boot35Host.jobRunrVersion()).isEqualTo("8.4.0");
    assertThat(host.getBean(CaptchaJobs.class).runsWorker()).isFalse();
  }

  @Test
  void theHostsOwnJobRunsOnItsOwnServerInItsOwnTables() {
    UUID id = host.getBean(JobRequestScheduler.class).enqueue(new RecordOrder("first-1")).asUUID();
    StorageProvider hostStorage = host.getBean(StorageProvider.class);

    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> hostStorage.getJobById(id).getState() == StateName.SUCCEEDED);
    assertThat(count("SELECT count(*) FROM public.jobrunr_jobs WHERE id = ?", id.toString()))
        .isOne();
    assertThat(
            count("SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE id = ?", id.toString()))
        .isZero();
    assertThat(count("SELECT count(*) FROM public.host_order WHERE reference = ?", "first-1"))
        .isOne();
  }

  @Test
  void theHostsFlywayHistoryHoldsOnlyItsOwnMigrationAndNoTableOfOursIsInPublic() {
    assertThat(
            jdbc.queryForList(
                "SELECT version FROM public.flyway_schema_history WHERE version IS NOT NULL",
                String.class))
        .containsExactly("1");
    assertThat(
            jdbc.queryForList(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                    + " AND (table_name LIKE 'cj\\_%' OR table_name LIKE 'captchajobs%')",
                String.class))
        .isEmpty();
    assertThat(count("SELECT count(*) FROM captchajobs.schema_history")).isPositive();
  }

  @Test
  void aSolveEnqueuedThroughTheCoreIsSolvedByTheWorkerNodeAndClaimedOnce() throws Exception {
    Solves solves = host.getBean(Solves.class);
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile("b35-first-1", Boot35Host.SITEKEY, "https://shop.test/first-1"));

    assertThat(solves.await(id, Duration.ofSeconds(60)).get().status())
        .isEqualTo(SolveStatus.SOLVED);
    assertThat(solves.claim(id).token()).isNotBlank();
    assertThatThrownBy(() -> solves.claim(id)).isInstanceOf(TokenAlreadyClaimedException.class);
    assertThat(simulator.acceptedSubmits(KEY)).isEqualTo(1);
    String ofTheSolve = "%" + id + "%";
    assertThat(
            count(
                "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?",
                ofTheSolve))
        .isPositive();
    assertThat(count("SELECT count(*) FROM public.jobrunr_jobs WHERE jobasjson LIKE ?", ofTheSolve))
        .isZero();
    assertThat(
            jdbc.queryForList(
                "SELECT DISTINCT name FROM captchajobs.cj_jobrunr_backgroundjobservers",
                String.class))
        .containsExactly(WORKER);
  }

  private static long count(String sql, Object... args) {
    return jdbc.queryForObject(sql, Long.class, args);
  }
}
