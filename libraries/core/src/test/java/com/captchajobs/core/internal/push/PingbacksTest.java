package com.captchajobs.core.internal.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.CapturedOutput;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.OutputCapture;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.TaskRecord;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Answers pushed by the provider (docs/pingback.md), end to end over sockets: the simulator pushes
 * to a receiver on a real port that hands each call to the node's {@link Pingbacks}, as the app
 * node's controller does. A push is a doorbell: it rings one res.php fetch, and what res.php says
 * is stored. Turnstile tasks take 1–2 s (pushed long before the fallback poll at 9 s); reCAPTCHA v2
 * tasks take a minute, so a test can push to a solve that is still waiting.
 */
@Isolated
@ExtendWith(OutputCapture.class)
class PingbacksTest {

  static final String KEY = "pingbackKeyPINGBACKkeyPINGBACK12";
  static final String SECRET = "pingback-secret-of-the-test-fleet-0123456789";
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static CaptchaAiSimulator sim;
  static HttpServer receiver;
  static EngineNode node;
  static SolveProbe solves;
  static volatile Pingbacks pingbacks;

  /** SolveProbe whose real pushes the receiver loses, as the network may. */
  static final Set<UUID> lose = ConcurrentHashMap.newKeySet();

  @BeforeAll
  static void start() throws IOException {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 5)
            .solveTime("turnstile", Duration.ofSeconds(1), Duration.ofSeconds(2))
            .solveTime("userrecaptcha", Duration.ofSeconds(60), Duration.ofSeconds(70))
            .build()
            .start();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
    receiver.createContext(Pingbacks.PATH + "/", PingbacksTest::receive);
    receiver.start();
    node =
        EngineNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchaai.pingback-url",
                "http://127.0.0.1:" + receiver.getAddress().getPort() + Pingbacks.PATH,
                "captchaai.pingback-secret",
                SECRET,
                "captchaai.provider-check-interval",
                "1h"));
    pingbacks = node.part(Pingbacks.class);
    solves = node.probe();
  }

  @AfterAll
  static void stop() {
    node.close();
    receiver.stop(0);
    sim.close();
  }

  @Test
  void aPushRingsOneResPhpFetchAtOnceAndStoresWhatResPhpSaysLongBeforeTheFallbackPoll() {
    UUID id = solves.turnstile("push-fast");

    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(30));

    TaskRecord task = taskOf("push-fast");
    assertThat(task.polls()).as("res.php calls: the confirming fetch").isEqualTo(1);
    assertThat(Duration.between(solved.submittedAt(), solved.solvedAt()))
        .isLessThan(Duration.ofSeconds(6)); // the fallback poll comes at 9 s
    assertThat(solves.token(id)).startsWith("0.");
    // the simulator records a push once the receiver answered it
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertThat(sim.pushes())
                    .filteredOn(p -> p.taskId() == task.id())
                    .extracting(PushRecord::event, PushRecord::status)
                    .containsExactly(tuple(PushRecord.SENT, 200)));
  }

  @Test
  void aLostPushIsCoveredByOnePollNoLaterThanOnePollStepAfterPollingAlone() {
    UUID id = solves.turnstile("push-lost");
    lose.add(id); // the task takes a second at least: its push comes later

    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(30));

    assertThat(taskOf("push-lost").polls()).as("res.php calls").isEqualTo(1);
    // polling alone makes its first poll at 5 s: the fallback comes at most one step (5 s) later
    assertThat(Duration.between(solved.submittedAt(), solved.solvedAt()))
        .isLessThanOrEqualTo(Duration.ofSeconds(11));
  }

  @Test
  void aForgedSignatureAnOldSubmissionOrAnotherSolveRingsNothingAndAValidOneRingsOnce()
      throws Exception {
    UUID id = solves.recaptchaV2("push-forged");
    Solve waiting = solves.awaitStatus(id, SolveStatus.SUBMITTED);
    String url = pingbacks.urls().urlFor(id, 1);
    String taskId = waiting.taskId();
    long refusedBefore = pingbacks.refusedCount();

    String forgedSignature = url.substring(0, url.length() - 4) + "AAAA";
    assertThat(push(forgedSignature, taskId, "forged-token")).isEqualTo(404);
    assertThat(push(pingbacks.urls().urlFor(id, 2), taskId, "next-submission")).isEqualTo(404);
    assertThat(push(pingbacks.urls().urlFor(UUID.randomUUID(), 1), taskId, "other-solve"))
        .isEqualTo(404);
    assertThat(pingbacks.refusedCount() - refusedBefore).isEqualTo(3);
    assertThat(taskOf("push-forged").polls()).as("res.php calls").isZero();

    // the valid URL with an answer that is not the provider's: one fetch, "not ready", nothing
    // stored; the pushes that follow before the next call ring the same fetch
    assertThat(push(url, taskId, "FORGED-1")).isEqualTo(200);
    assertThat(push(url, "73000000000999", "FORGED-2")).isEqualTo(200);
    await().atMost(Duration.ofSeconds(10)).until(() -> taskOf("push-forged").polls() == 1);
    assertThat(push(url, taskId, "FORGED-3")).isEqualTo(200); // 5 s after that call at the soonest
    assertThat(solves.get(id).status()).isEqualTo(SolveStatus.SUBMITTED);
    assertThat(solves.token(id)).isNull();
    assertThat(solves.everyStoredText()).noneMatch(t -> t.contains("FORGED-"));
  }

  @Test
  void forgedAnswersAndErrorCodesOnTheTasksOwnUrlsStoreTheProvidersTokenOpenNoBreakerAndSubmitOnce()
      throws Exception {
    Map<String, UUID> ids = new LinkedHashMap<>();
    for (String code :
        new String[] {"FORGED-1", "ERROR_WRONG_USER_KEY", "ERROR_CAPTCHA_UNSOLVABLE"}) {
      UUID id = solves.turnstile("push-forged-code-" + ids.size());
      Solve waiting = solves.awaitStatus(id, SolveStatus.SUBMITTED);
      assertThat(push(pingbacks.urls().urlFor(id, 1), waiting.taskId(), code)).isEqualTo(200);
      ids.put(code, id);
    }

    int n = 0;
    for (Map.Entry<String, UUID> e : ids.entrySet()) {
      Solve solved = solves.awaitStatus(e.getValue(), SolveStatus.SOLVED, Duration.ofSeconds(30));
      assertThat(solved.submits()).as(e.getKey()).isEqualTo(1);
      assertThat(solves.token(e.getValue())).as(e.getKey()).startsWith("0.");
      assertThat(sim.stats().submitsByPageUrl())
          .containsEntry(SolveProbe.pageUrl("push-forged-code-" + n++), 1L);
    }
    assertThat(node.part(Breaker.class).openState()).isEmpty();
    UUID after = solves.turnstile("push-after-forged-codes");
    solves.awaitStatus(after, SolveStatus.SOLVED, Duration.ofSeconds(30));
    assertThat(solves.everyStoredText()).noneMatch(t -> t.contains("FORGED-1"));
  }

  @Test
  void aFloodOfForgedPushesLeavesAtMostOneLogLineAndNoneOfItsValues(CapturedOutput output)
      throws Exception {
    UUID id = solves.recaptchaV2("push-flood");
    Solve waiting = solves.awaitStatus(id, SolveStatus.SUBMITTED);
    String url = pingbacks.urls().urlFor(id, 1);
    String forged = url.substring(0, url.length() - 4) + "BBBB";
    int before = output.toString().split("Refused ", -1).length;

    for (int i = 0; i < 500; i++) {
      assertThat(push(forged, waiting.taskId(), "flood-token-" + i)).isEqualTo(404);
    }
    for (int i = 0; i < 50; i++) {
      assertThat(push(url, waiting.taskId(), "valid-url-flood-" + i)).isEqualTo(200);
    }

    await().atMost(Duration.ofSeconds(10)).until(() -> taskOf("push-flood").polls() == 1);
    String log = output.toString();
    assertThat(log.split("Refused ", -1).length - before).isLessThanOrEqualTo(1);
    assertThat(log)
        .doesNotContain("flood-token-")
        .doesNotContain("valid-url-flood-")
        .doesNotContain(forged.substring(forged.length() - 43));
    assertThat(solves.token(id)).isNull();
  }

  @Test
  void aPushThatAlreadyRangSinceTheTasksLastCallStoresNoEventAndCreatesNoFetch() throws Exception {
    UUID id = solves.recaptchaV2("push-rings-once");
    Solve waiting = solves.awaitStatus(id, SolveStatus.SUBMITTED);
    String url = pingbacks.urls().urlFor(id, 1);
    assertThat(push(url, waiting.taskId(), "first")).isEqualTo(200);
    await().atMost(Duration.ofSeconds(10)).until(() -> taskOf("push-rings-once").polls() == 1);

    // after the fetch's call the next push rings again (it may carry the answer the call missed);
    // every one after it, until the task's next call, is answered without a job or an event
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> answers = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        answers.add(pool.submit(() -> push(url, waiting.taskId(), "again")));
      }
      for (Future<Integer> answer : answers) {
        assertThat(answer.get()).isEqualTo(200);
      }
    } finally {
      pool.shutdownNow();
    }

    long calls = taskOf("push-rings-once").polls();
    long events =
        solves
            .jdbc()
            .queryForObject(
                "SELECT count(*) FROM captchajobs.solve_event WHERE solve_id = ? AND kind = 'push'",
                Long.class,
                id);
    long fetches =
        solves
            .jdbc()
            .queryForObject(
                "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?"
                    + " AND jobasjson LIKE '%PushedPollRequest%'",
                Long.class, "%" + id + "%");
    assertThat(events)
        .as("push events: one ring per res.php call on the task")
        .isBetween(2L, calls + 1);
    assertThat(fetches).as("confirming fetches created").isEqualTo(events);
  }

  @Test
  void theFallbackPollOfAPushedSolveEndsWithoutCallingResPhp() {
    UUID id = solves.turnstile("push-no-poll");
    solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(30));
    StorageProvider storage = node.part(StorageProvider.class);
    UUID fallback = SolveJobs.pollJobId(id, 1, 1);

    // the fallback poll job wakes up at its instant, sees the solve answered and calls nothing
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> storage.getJobById(fallback).getState() == StateName.SUCCEEDED);
    assertThat(pollRows(id)).as("the confirming fetch's call").isEqualTo(1);
    assertThat(taskOf("push-no-poll").polls()).isEqualTo(1);
  }

  private static long pollRows(UUID id) {
    return solves
        .jdbc()
        .queryForObject("SELECT count(*) FROM captchajobs.poll WHERE solve_id = ?", Long.class, id);
  }

  private static TaskRecord taskOf(String businessKey) {
    return sim.tasks().stream()
        .filter(t -> SolveProbe.pageUrl(businessKey).equals(t.pageUrl()))
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  private static int push(String url, String taskId, String code) throws Exception {
    String target =
        url
            + "?id="
            + URLEncoder.encode(taskId, StandardCharsets.UTF_8)
            + "&code="
            + URLEncoder.encode(code, StandardCharsets.UTF_8);
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(target)).GET().build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  /** The receiver: what the app node's controller does, on a port of its own. */
  private static void receive(HttpExchange exchange) throws IOException {
    String[] parts =
        exchange.getRequestURI().getPath().substring(Pingbacks.PATH.length() + 1).split("/");
    int status = 404;
    Pingbacks target = pingbacks;
    if (parts.length == 3 && target != null) {
      if (lose.contains(parseOrNull(parts[0]))) {
        status = 200; // lost on the way: the engine never hears of it
      } else {
        Pingbacks.PushResult verdict = target.receive(parts[0], parts[1], parts[2]);
        status = verdict == Pingbacks.PushResult.REFUSED ? 404 : 200;
      }
    }
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  private static UUID parseOrNull(String text) {
    try {
      return UUID.fromString(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
