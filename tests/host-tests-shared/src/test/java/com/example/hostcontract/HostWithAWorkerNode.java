package com.example.hostcontract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.SimulatorProcess;
import com.captchajobs.worker.testing.WorkerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A host application and a worker node (the real jar, in its own JVM) on one fresh database, both
 * talking to a simulator of CaptchaAI. The contracts that extend this start them in one order or
 * the other; each host module's test class names its host application, its account and its worker
 * node. One instance per test class, so that {@code @BeforeAll} can call what the module gives.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HostWithAWorkerNode {

  /** The CaptchaAI account the worker node solves with. */
  protected final String key;

  /** The worker node's name, which is also its JobRunr server's name. */
  protected final String workerName;

  /** What the references of this class's solves start with, e.g. {@code b41}. */
  protected final String solvePrefix;

  protected SimulatorProcess simulator;
  protected ConfigurableApplicationContext host;
  protected WorkerProcess worker;
  protected JdbcTemplate jdbc;

  /** The module's {@code @SpringBootApplication}. */
  private final Class<?> application;

  protected HostWithAWorkerNode(
      String key, String workerName, String solvePrefix, Class<?> application) {
    this.key = key;
    this.workerName = workerName;
    this.solvePrefix = solvePrefix;
    this.application = application;
  }

  /** The module's host application on {@code jdbcUrl}, with its own settings only. */
  protected final ConfigurableApplicationContext startHost(String jdbcUrl) {
    return Hosts.start(application, jdbcUrl, Map.of());
  }

  /** The Java the worker node runs on: by default the one running this test. */
  protected Path workerJava() {
    return WorkerProcess.currentJava();
  }

  protected final WorkerProcess startAWorkerNode(String jdbcUrl) {
    return WorkerProcess.startJar(
            workerJava(),
            Hosts.WORKER_JAR,
            workerName,
            jdbcUrl,
            simulator.baseUrl(),
            key,
            Map.of("captchaai.threads", "2", "captchaai.first-poll-wait.TURNSTILE", "1s"))
        .awaitUp();
  }

  /** Enqueues the host's own job through its own scheduler and waits until it SUCCEEDED. */
  protected final UUID runTheHostsOwnJob(String reference) {
    UUID id = host.getBean(JobRequestScheduler.class).enqueue(new RecordOrder(reference)).asUUID();
    StorageProvider hostStorage = host.getBean(StorageProvider.class);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> hostStorage.getJobById(id).getState() == StateName.SUCCEEDED);
    return id;
  }

  /**
   * Enqueues a turnstile solve through the host's {@link Solves}: it ends SOLVED within a minute
   * and its token can be claimed.
   */
  protected final UUID solveAndClaim(String reference, String page) throws Exception {
    Solves solves = host.getBean(Solves.class);
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile(reference, Hosts.SITEKEY, "https://shop.test/" + page));

    assertThat(solves.await(id, Duration.ofSeconds(60)).get().status())
        .isEqualTo(SolveStatus.SOLVED);
    assertThat(solves.claim(id).token()).isNotBlank();
    return id;
  }

  /** The solve was submitted once, and its jobs are in our JobRunr tables. */
  protected final void assertOneSubmitAndTheSolvesJobsInOurTables(UUID id) {
    assertThat(simulator.acceptedSubmits(key)).isEqualTo(1);
    assertThat(
            count(
                "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?",
                "%" + id + "%"))
        .isPositive();
  }

  /** No job in the host's JobRunr tables is one of ours. */
  protected final void assertNoJobOfOursIsInTheHostsTables() {
    assertThat(
            count(
                "SELECT count(*) FROM public.jobrunr_jobs WHERE jobasjson LIKE ?",
                "%com.captchajobs%"))
        .isZero();
  }

  protected final long count(String sql, Object... args) {
    return jdbc.queryForObject(sql, Long.class, args);
  }
}
