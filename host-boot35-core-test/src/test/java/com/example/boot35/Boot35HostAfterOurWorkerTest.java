package com.example.boot35;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.SolveStatus;
import com.captchajobs.core.Solves;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SimulatorProcess;
import com.captchajobs.worker.testing.WorkerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Boot 3.5 + JobRunr 8.4 host with the plain-Java core, worker first: a worker node created our
 * schema on a fresh database, then the host starts with no setting at all. The worker node runs on
 * JDK 25 where the machine has one.
 */
class Boot35HostAfterOurWorkerTest {

  static final String KEY = "b35after0b35after0b35after0b35af";
  static final String WORKER = "boot35-after-worker";

  static SimulatorProcess simulator;
  static Path workerJava;
  static WorkerProcess worker;
  static ConfigurableApplicationContext host;
  static JdbcTemplate jdbc;

  @BeforeAll
  static void startAWorkerNodeThenTheHost() {
    simulator = SimulatorProcess.start(KEY, 2, 0.1);
    String url = EmbeddedPostgresSupport.newDatabase();
    workerJava = Boot35Host.workerJava(WorkerProcess.currentJava());
    System.out.println(
        "The worker node of the worker-first Boot 3.5 variant runs on " + workerJava);
    worker =
        WorkerProcess.startJar(
                workerJava,
                Boot35Host.WORKER_JAR,
                WORKER,
                url,
                simulator.baseUrl(),
                KEY,
                Map.of("captchaai.threads", "2", "captchaai.first-poll-wait.TURNSTILE", "1s"))
            .awaitUp();
    host = Boot35Host.start(url, Map.of());
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
    assertThat(count("SELECT count(*) FROM public.jobrunr_jobs WHERE id = ?", id.toString()))
        .isOne();
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
  void aSolveEnqueuedByTheHostIsSolvedByTheWorkerNodeOnTheChosenJava() throws Exception {
    Solves solves = host.getBean(Solves.class);
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile("b35-after-1", Boot35Host.SITEKEY, "https://shop.test/after-1"));

    assertThat(solves.await(id, Duration.ofSeconds(60)).get().status())
        .isEqualTo(SolveStatus.SOLVED);
    assertThat(solves.claim(id).token()).isNotBlank();
    assertThat(
            jdbc.queryForList(
                "SELECT DISTINCT name FROM captchajobs.cj_jobrunr_backgroundjobservers",
                String.class))
        .containsExactly(WORKER);
    String expectedJava = workerJava.equals(Boot35Host.JAVA_25) ? "25" : runningJavaFeature();
    assertThat(Files.readString(worker.log().toPath())).contains("using Java " + expectedJava);
  }

  private static String runningJavaFeature() {
    return Integer.toString(Runtime.version().feature());
  }

  private static long count(String sql, Object... args) {
    return jdbc.queryForObject(sql, Long.class, args);
  }
}
