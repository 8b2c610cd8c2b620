package com.example.boot41;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.SolveStatus;
import com.captchajobs.core.Solves;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SimulatorProcess;
import com.captchajobs.worker.testing.WorkerProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Boot 4.1 + JobRunr 8.7 host with the starter, host first: it meets a fresh database, then a
 * worker node (the real jar, in its own JVM) joins it. The guest rules, each checked once.
 */
class Boot41HostFirstTest {

  static final String KEY = "b41first0b41first0b41first0b41fi";
  static final String WORKER = "boot41-first-worker";

  static SimulatorProcess simulator;
  static ConfigurableApplicationContext host;
  static WorkerProcess worker;
  static JdbcTemplate jdbc;

  @BeforeAll
  static void startTheHostThenAWorkerNode() {
    simulator = SimulatorProcess.start(KEY, 2, 0.1);
    String url = EmbeddedPostgresSupport.newDatabase();
    host = Boot41Host.start(url);
    jdbc = new JdbcTemplate(host.getBean(DataSource.class));
    worker =
        WorkerProcess.startJar(
                Boot41Host.WORKER_JAR,
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
  void theHostRunsOnBoot41AndItsOwnJobRunsOnItsOwnServerInItsOwnTables() {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.1.");
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
  void aSolveIsSolvedByTheWorkerNodeAndNeverRunsOnTheHostsJobRunrServer() throws Exception {
    Solves solves = host.getBean(Solves.class);
    UUID id =
        solves.enqueue(
            SolveRequest.turnstile("b41-first-1", Boot41Host.SITEKEY, "https://shop.test/first-1"));

    assertThat(solves.await(id, Duration.ofSeconds(60)).get().status())
        .isEqualTo(SolveStatus.SOLVED);
    assertThat(solves.claim(id).token()).isNotBlank();
    assertThat(simulator.acceptedSubmits(KEY)).isEqualTo(1);
    assertThat(
            count(
                "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?",
                "%" + id + "%"))
        .isPositive();
    assertThat(
            count(
                "SELECT count(*) FROM public.jobrunr_jobs WHERE jobasjson LIKE ?",
                "%com.captchajobs%"))
        .isZero();
    assertThat(
            jdbc.queryForList(
                "SELECT DISTINCT name FROM captchajobs.cj_jobrunr_backgroundjobservers",
                String.class))
        .containsExactly(WORKER);
    assertThat(host.getBeansOfType(BackgroundJobServer.class)).hasSize(1);
    assertThat(host.getBean(BackgroundJobServer.class).getConfiguration().getName())
        .isNotEqualTo(WORKER);
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
  }

  @Test
  void theHostsActuatorShowsExactlyWhatItDidBefore() throws Exception {
    int port = Integer.parseInt(host.getEnvironment().getProperty("local.server.port"));
    HttpClient http = HttpClient.newHttpClient();

    assertThat(get(http, port, "/actuator/metrics").statusCode()).isEqualTo(404);
    assertThat(get(http, port, "/actuator/breaker").statusCode()).isEqualTo(404);
    assertThat(get(http, port, "/actuator/health").statusCode()).isEqualTo(200);
  }

  private static long count(String sql, Object... args) {
    return jdbc.queryForObject(sql, Long.class, args);
  }

  private static HttpResponse<String> get(HttpClient http, int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
