package com.example.boot41;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.SolveStatus;
import com.captchajobs.core.Solves;
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
 * Boot 4.1 + JobRunr 8.7 host with the starter, worker first: a worker node created our schema on a
 * fresh database, then the host starts with no setting at all.
 */
class Boot41HostAfterOurWorkerTest {

  static final String KEY = "b41after0b41after0b41after0b41af";
  static final String WORKER = "boot41-after-worker";

  static SimulatorProcess simulator;
  static WorkerProcess worker;
  static ConfigurableApplicationContext host;
  static JdbcTemplate jdbc;

  @BeforeAll
  static void startAWorkerNodeThenTheHost() {
    simulator = SimulatorProcess.start(KEY, 2, 0.1);
    String url = EmbeddedPostgresSupport.newDatabase();
    worker =
        WorkerProcess.startJar(
                Boot41Host.WORKER_JAR,
                WORKER,
                url,
                simulator.baseUrl(),
                KEY,
                Map.of("captchaai.threads", "2", "captchaai.first-poll-wait.TURNSTILE", "1s"))
            .awaitUp();
    host = Boot41Host.start(url);
    jdbc = new JdbcTemplate(host.getBean(DataSource.class));
  }

  @AfterAll
  static void stop() {
    if (host != null) {
      host.close();
    }
    if (worker != null) {
      worker.close();
    }
    simulator.close();
  }

  @Test
  void theHostsJobRunrCreatesItsOwnTablesInPublicWithNoSettingAndRunsItsJob() {
    assertThat(host.getEnvironment().getProperty("jobrunr.database.table-prefix")).isNull();
    assertThat(
            jdbc.queryForList(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                    + " AND table_name IN ('jobrunr_jobs', 'jobrunr_migrations')"
                    + " ORDER BY table_name",
                String.class))
        .containsExactly("jobrunr_jobs", "jobrunr_migrations");

    UUID id = host.getBean(JobRequestScheduler.class).enqueue(new RecordOrder("after-1")).asUUID();
    StorageProvider hostStorage = host.getBean(StorageProvider.class);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> hostStorage.getJobById(id).getState() == StateName.SUCCEEDED);
    assertThat(count("SELECT count(*) FROM public.host_order WHERE reference = ?", "after-1"))
        .isOne();
  }

  @Test
  void theHostsFlywayStartsAsIfWeWereNotThere() {
    assertThat(
            jdbc.queryForList(
                "SELECT version FROM public.flyway_schema_history WHERE version IS NOT NULL",
                String.class))
        .containsExactly("1");
  }

  @Test
  void aSolveEnqueuedThroughTheStarterIsSolvedByTheWorkerNode() throws Exception {
    Solves solves = host.getBean(Solves.class);
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile("b41-after-1", Boot41Host.SITEKEY, "https://shop.test/after-1"));

    assertThat(solves.await(id, Duration.ofSeconds(60)).get().status())
        .isEqualTo(SolveStatus.SOLVED);
    assertThat(solves.claim(id).token()).isNotBlank();
    assertThat(
            count(
                "SELECT count(*) FROM public.jobrunr_jobs WHERE jobasjson LIKE ?",
                "%com.captchajobs%"))
        .isZero();
  }

  private static long count(String sql, Object... args) {
    return jdbc.queryForObject(sql, Long.class, args);
  }
}
