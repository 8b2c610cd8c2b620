package com.captchajobs.core.internal.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.TaskRecord;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three worker nodes on one database, each told of every rung push ({@link PushedFetches}): one
 * res.php call per push whichever worker claims it, none by the fetch's job afterwards, and the
 * provider's 5 s between two calls on a task. The pushes reach a node without a worker, as they
 * reach an app node: it rings and tells the workers, and fetches nothing itself. Judged from the
 * simulator's log, over sockets on real PostgreSQL and JobRunr.
 */
class PushedFetchesAcrossWorkersTest {

  static final String KEY = "fleetPushKeyFLEETPUSHkeyFLEET123";
  static final String SECRET = "pingback-secret-of-the-three-workers-0123456789";

  static CaptchaAiSimulator sim;
  static HttpServer receiver;
  static final List<EngineNode> nodes = new ArrayList<>();
  static EngineNode app;
  static SolveProbe solves;
  static volatile Pingbacks pingbacks;

  @BeforeAll
  static void start() throws IOException {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 20)
            .solveTime("turnstile", Duration.ofSeconds(1), Duration.ofSeconds(2))
            .solveTime("userrecaptcha", Duration.ofSeconds(60), Duration.ofSeconds(70))
            .build()
            .start();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
    receiver.createContext(Pingbacks.PATH + "/", PushedFetchesAcrossWorkersTest::receive);
    receiver.start();
    String database = EmbeddedPostgresSupport.newDatabase();
    app =
        EngineNode.start(
            database,
            sim.baseUrl(),
            KEY,
            Map.of("captchajobs.worker.enabled", "false", "captchaai.pingback-secret", SECRET));
    for (int i = 1; i <= 3; i++) {
      nodes.add(
          EngineNode.start(
              database,
              sim.baseUrl(),
              KEY,
              Map.of(
                  "captchajobs.worker.name",
                  "push-worker-" + i,
                  "captchaai.pingback-url",
                  "http://127.0.0.1:" + receiver.getAddress().getPort() + Pingbacks.PATH,
                  "captchaai.pingback-secret",
                  SECRET,
                  "captchaai.provider-check-interval",
                  "1h")));
    }
    pingbacks = app.part(Pingbacks.class);
    solves = app.probe();
  }

  @AfterAll
  static void stop() {
    nodes.forEach(EngineNode::close);
    app.close();
    receiver.stop(0);
    sim.close();
  }

  @Test
  void aNodeWithoutAWorkerRingsButHasNoExecutorOfPushedFetches() {
    assertThatThrownBy(() -> app.part(PushedFetches.class))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(nodes).allSatisfy(n -> assertThat(n.part(PushedFetches.class)).isNotNull());
  }

  @Test
  void everyPushIsFetchedByOneWorkerWithOneCallAndItsJobCallsNothingAfterwards() {
    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      ids.add(solves.turnstile("fleet-push-" + i));
    }
    for (UUID id : ids) {
      solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(30));
    }

    // every fetch's job, the fallback, has run too: it found the call made
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                solves
                        .jdbc()
                        .queryForObject(
                            "SELECT count(*)::int FROM captchajobs.cj_jobrunr_jobs"
                                + " WHERE jobasjson LIKE '%\"Fetch pushed TURNSTILE fleet-push-%'"
                                + " AND state = 'SUCCEEDED'",
                            Integer.class)
                    == ids.size());
    for (int i = 0; i < ids.size(); i++) {
      assertThat(solves.token(ids.get(i))).startsWith("0.");
      assertThat(resGets(taskOf("fleet-push-" + i).id()))
          .as("res.php calls on the task of fleet-push-" + i)
          .hasSize(1);
    }
  }

  @Test
  void aPushLessThanFiveSecondsAfterTheTasksLastCallIsFetchedFiveSecondsAfterItNotBefore() {
    UUID id = solves.recaptchaV2("fleet-push-paced"); // answered after a minute
    Solve waiting = solves.awaitStatus(id, SolveStatus.SUBMITTED);
    long taskId = Long.parseLong(waiting.taskId());

    push(id); // not ready yet: the fetch finds nothing, and the next push may ring again
    await().atMost(Duration.ofSeconds(10)).until(() -> resGets(taskId).size() == 1);
    push(id); // within 5 s of that call
    await().atMost(Duration.ofSeconds(15)).until(() -> resGets(taskId).size() == 2);

    List<RequestRecord> gets = resGets(taskId);
    assertThat(gets.get(1).at() - gets.get(0).at())
        .as("ms between the two res.php calls (the fallback poll comes 12 s after submit or later)")
        .isBetween(5_000L, 8_000L);
    assertThat(gets).extracting(RequestRecord::outcome).containsOnly("CAPCHA_NOT_READY");
    assertThat(solves.get(id).status()).isEqualTo(SolveStatus.SUBMITTED);
  }

  /** A valid push of the solve's first submission, as the provider sends it. */
  private static void push(UUID id) {
    // signed as a worker sends it to the provider; the app node has the secret but no URL
    String url = nodes.get(0).part(Pingbacks.class).urls().urlFor(id, 1);
    String signature = url.substring(url.lastIndexOf('/') + 1);
    assertThat(pingbacks.receive(id.toString(), "1", signature))
        .isEqualTo(Pingbacks.PushResult.RANG);
  }

  private static List<RequestRecord> resGets(long taskId) {
    return sim.requests().stream().filter(r -> r.resGet() && r.taskId() == taskId).toList();
  }

  private static TaskRecord taskOf(String businessKey) {
    return sim.tasks().stream()
        .filter(t -> SolveProbe.pageUrl(businessKey).equals(t.pageUrl()))
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  /** The receiver: what the app node's controller does, on a port of its own. */
  private static void receive(HttpExchange exchange) throws IOException {
    String[] parts =
        exchange.getRequestURI().getPath().substring(Pingbacks.PATH.length() + 1).split("/");
    int status = 404;
    Pingbacks target = pingbacks;
    if (parts.length == 3 && target != null) {
      status =
          target.receive(parts[0], parts[1], parts[2]) == Pingbacks.PushResult.REFUSED ? 404 : 200;
    }
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }
}
