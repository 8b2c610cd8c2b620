package com.captchajobs.worker.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.worker.testing.WorkerNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.jobs.states.ScheduledState;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One run through every state a solve can end in (solved, claimed, expired, failed permanent,
 * retried, unsolvable, breaker open), then a search for the API key and the tokens everywhere an
 * operator or an attacker could look: every column of every row of JobRunr's and our tables, the
 * log output, and Actuator, with env and configprops exposed as an operator might.
 */
@Isolated
@ExtendWith(OutputCaptureExtension.class)
class SecretsNeverLeakTest {

  static final String KEY = "opsSecretKeyOPSsecretKeyOPS12345";

  /** Well-formed (32 characters) but unknown to the provider: opens the breaker. */
  static final String UNKNOWN_KEY = "opsUnknownKeyOPSunknownKeyOPS123";

  static final Map<String, String> EXPOSE_EVERYTHING_READABLE =
      Map.of(
          "management.endpoints.web.exposure.include",
              "health,info,metrics,prometheus,env,configprops",
          "logging.level.com.captchajobs", "DEBUG");

  @Test
  void afterEveryKindOfSolveTheKeyIsNowhereAndTokensAreInNoJobRow(CapturedOutput output) {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      String breakerDb = EmbeddedPostgresSupport.newDatabase();
      Map<String, String> props = new LinkedHashMap<>(EXPOSE_EVERYTHING_READABLE);
      props.put("captchaai.first-poll-wait.TURNSTILE", "1s");
      props.put("captchaai.first-poll-wait.RECAPTCHA_V2", "1s");
      // the expired case: a short token life for one type, so the other solves keep theirs
      props.put("captchaai.token-ttl.RECAPTCHA_V2", "1s");
      try (WorkerNode node = WorkerNode.start(db, sim.baseUrl(), KEY, props);
          WorkerNode rejected =
              WorkerNode.start(breakerDb, sim.baseUrl(), UNKNOWN_KEY, EXPOSE_EVERYTHING_READABLE)) {
        SolveEnqueuer enqueuer = node.bean(SolveEnqueuer.class);
        SolveRepository repository = node.bean(SolveRepository.class);
        List<String> tokens = new ArrayList<>();

        sim.injectNext(Endpoint.IN, Fault.HTML_502);
        UUID retried = turnstile(enqueuer, "ops-retried", SolveProbe.pageUrl("ops-retried"));
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> history(node, retried).stream().anyMatch(s -> s instanceof FailedState));

        UUID solved = turnstile(enqueuer, "ops-solved", SolveProbe.pageUrl("ops-solved"));
        UUID claimed = turnstile(enqueuer, "ops-claimed", SolveProbe.pageUrl("ops-claimed"));
        UUID permanent =
            enqueuer
                .enqueue(
                    SolveRepository.JAVA_API_CLIENT,
                    "ops-permanent",
                    CaptchaType.TURNSTILE,
                    Map.of("sitekey", "invalid", "pageUrl", SolveProbe.pageUrl("ops-permanent")),
                    0,
                    null,
                    0)
                .orElseThrow()
                .id();
        UUID unsolvable =
            turnstile(enqueuer, "ops-unsolvable", "https://shop.example.test/unsolvable/ops");
        UUID expired =
            enqueuer
                .enqueue(
                    SolveRepository.JAVA_API_CLIENT,
                    "ops-expired",
                    CaptchaType.RECAPTCHA_V2,
                    Map.of(
                        "sitekey",
                        "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
                        "pageUrl",
                        SolveProbe.pageUrl("ops-expired")),
                    0,
                    null,
                    0)
                .orElseThrow()
                .id();
        UUID breakerOpen =
            rejected
                .bean(SolveEnqueuer.class)
                .enqueue(
                    SolveRepository.JAVA_API_CLIENT,
                    "ops-breaker",
                    CaptchaType.TURNSTILE,
                    Map.of(
                        "sitekey",
                        "0x4AAAAAAADnPIDROrmt1Wwj",
                        "pageUrl",
                        SolveProbe.pageUrl("ops-breaker")),
                    0,
                    null,
                    0)
                .orElseThrow()
                .id();

        awaitStatus(repository, solved, SolveStatus.SOLVED);
        tokens.add(token(node, solved));
        awaitStatus(repository, claimed, SolveStatus.SOLVED);
        tokens.add(repository.claim(claimed).orElseThrow().claimed().token());
        awaitStatus(repository, retried, SolveStatus.SOLVED);
        tokens.add(token(node, retried));
        awaitStatus(repository, permanent, SolveStatus.FAILED);
        awaitStatus(repository, unsolvable, SolveStatus.FAILED);
        awaitStatus(repository, expired, SolveStatus.EXPIRED);
        awaitStatus(rejected.bean(SolveRepository.class), breakerOpen, SolveStatus.FAILED);

        assertThat(repository.find(claimed).orElseThrow().status()).isEqualTo(SolveStatus.CLAIMED);
        assertThat(repository.find(retried).orElseThrow().submits()).isEqualTo(1);
        assertThat(history(node, retried))
            .anyMatch(
                s -> s instanceof ScheduledState sc && sc.getReason().startsWith("Retry 1 of"));
        assertThat(repository.find(unsolvable).orElseThrow().errorCode())
            .isEqualTo("ERROR_CAPTCHA_UNSOLVABLE");
        assertThat(rejected.bean(Breaker.class).openState()).isPresent();
        assertThat(tokens).allSatisfy(t -> assertThat(t).isNotBlank());

        List<String> rows = new ArrayList<>(everyRow(node));
        rows.addAll(everyRow(rejected));
        assertThat(rows)
            .hasSizeGreaterThan(20)
            .noneMatch(row -> row.contains(KEY) || row.contains(UNKNOWN_KEY));
        List<String> jobRows = new ArrayList<>(jobRows(node));
        jobRows.addAll(jobRows(rejected));
        assertThat(jobRows).isNotEmpty().noneMatch(row -> tokens.stream().anyMatch(row::contains));
        assertThat(token(node, claimed)).as("a claimed token is not kept").isNull();
        assertThat(token(node, expired)).as("an expired token is not kept").isNull();

        Map<String, String> actuator = new LinkedHashMap<>(actuatorResponses(node));
        actuatorResponses(rejected).forEach((path, body) -> actuator.put("rejected " + path, body));
        assertThat(actuator.keySet()).contains("/actuator/metrics/captchajobs.submits");
        assertThat(actuator.get("/actuator/env")).contains("captchaai.api-key");
        assertThat(actuator.get("rejected /actuator/health")).contains("ERROR_KEY_DOES_NOT_EXIST");
        assertThat(actuator.get("/actuator/prometheus")).contains("captchajobs_submits");
        List<String> leaking =
            actuator.entrySet().stream()
                .filter(
                    e ->
                        e.getValue().contains(KEY)
                            || e.getValue().contains(UNKNOWN_KEY)
                            || tokens.stream().anyMatch(e.getValue()::contains))
                .map(Map.Entry::getKey)
                .toList();
        assertThat(leaking).as("Actuator responses containing the key or a token").isEmpty();
        System.out.printf(
            "[ops] scanned %d rows, %d job rows, %d Actuator responses, %d chars of log%n",
            rows.size(), jobRows.size(), actuator.size(), output.getAll().length());
      }
    }
    assertThat(output.getAll())
        .contains("ops-solved")
        .doesNotContain(KEY)
        .doesNotContain(UNKNOWN_KEY);
  }

  static UUID turnstile(SolveEnqueuer enqueuer, String businessKey, String pageUrl) {
    return enqueuer
        .enqueue(
            SolveRepository.JAVA_API_CLIENT,
            businessKey,
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "0x4AAAAAAADnPIDROrmt1Wwj", "pageUrl", pageUrl),
            0,
            null,
            0)
        .orElseThrow()
        .id();
  }

  static void awaitStatus(SolveRepository repository, UUID id, SolveStatus status) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> repository.find(id).map(Solve::status).orElse(null) == status);
  }

  static List<org.jobrunr.jobs.states.JobState> history(WorkerNode node, UUID solveId) {
    return node.bean(StorageProvider.class)
        .getJobById(SolveJobs.enqueueJobId(solveId))
        .getJobStates();
  }

  static String token(WorkerNode node, UUID id) {
    return new JdbcTemplate(node.bean(DataSource.class))
        .queryForObject("SELECT token FROM captchajobs.solve WHERE id = ?", String.class, id);
  }

  /** Every column of every row of every JobRunr and CaptchaJobs table, as text. */
  static List<String> everyRow(WorkerNode node) {
    JdbcTemplate jdbc = new JdbcTemplate(node.bean(DataSource.class));
    List<String> tables =
        jdbc.queryForList(
            "SELECT table_schema || '.' || table_name"
                + " FROM information_schema.tables WHERE table_type = 'BASE TABLE'"
                + " AND table_schema NOT IN ('pg_catalog', 'information_schema')",
            String.class);
    assertThat(tables)
        .contains("captchajobs.solve", "captchajobs.breaker", "captchajobs.cj_jobrunr_jobs");
    List<String> rows = new ArrayList<>();
    for (String table : tables) {
      rows.addAll(jdbc.queryForList("SELECT t::text FROM " + table + " t", String.class));
    }
    return rows;
  }

  static List<String> jobRows(WorkerNode node) {
    return new JdbcTemplate(node.bean(DataSource.class))
        .queryForList("SELECT t::text FROM captchajobs.cj_jobrunr_jobs t", String.class);
  }

  /** The Actuator index, every exposed endpoint above and every metric by name. */
  static Map<String, String> actuatorResponses(WorkerNode node) {
    Map<String, String> bodies = new LinkedHashMap<>();
    for (String path :
        List.of(
            "/actuator",
            "/actuator/health",
            "/actuator/info",
            "/actuator/metrics",
            "/actuator/prometheus",
            "/actuator/env",
            "/actuator/configprops")) {
      HttpResponse<String> r = node.get(path);
      assertThat(r.statusCode()).as(path).isIn(200, 503);
      bodies.put(path, r.body());
    }
    Matcher names =
        Pattern.compile("\"([a-z0-9_.]+)\"")
            .matcher(bodies.get("/actuator/metrics").replaceFirst("^\\{\"names\":", ""));
    while (names.find()) {
      String path = "/actuator/metrics/" + names.group(1);
      bodies.put(path, node.get(path).body());
    }
    return bodies;
  }
}
