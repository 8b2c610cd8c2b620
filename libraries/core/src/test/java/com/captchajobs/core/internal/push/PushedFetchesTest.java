package com.captchajobs.core.internal.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.TaskRecord;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jobrunr.server.BackgroundJobServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A push is fetched at its instant on the worker's own executor ({@link PushedFetches}), not in
 * JobRunr's queue: the worker here has one JobRunr thread, and it is held by a poll waiting for its
 * instant (a poll lead of a minute makes the submit job make its solve's first poll itself, 25 s
 * on). The old code fetched the pushed answer in a job that waited for that thread. Judged from the
 * simulator's log, over sockets on real PostgreSQL and JobRunr.
 */
class PushedFetchesTest {

  static final String KEY = "busyPushKeyBUSYPUSHkeyBUSYPUSH12";
  static final String SECRET = "pingback-secret-of-the-busy-fleet-0123456789";

  static CaptchaAiSimulator sim;
  static HttpServer receiver;
  static EngineNode node;
  static SolveProbe solves;
  static volatile Pingbacks pingbacks;

  @BeforeAll
  static void start() throws IOException {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 5)
            .solveTime("turnstile", Duration.ofSeconds(1), Duration.ofSeconds(2))
            .build()
            .start();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
    receiver.createContext(Pingbacks.PATH + "/", PushedFetchesTest::receive);
    receiver.start();
    node =
        EngineNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchajobs.worker.worker-count",
                "1",
                "captchaai.poll-lead",
                "60s",
                "captchaai.first-poll-wait.TURNSTILE",
                "25s",
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
  void aPushIsFetchedAtOnceWhileTheWorkersOnlyJobRunrThreadWaitsForAPollAndItsJobCallsNothing() {
    UUID id = solves.turnstile("busy-push");

    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(15));

    assertThat(node.part(BackgroundJobServer.class).getJobSteward().getOccupiedWorkerCount())
        .as("the worker's one JobRunr thread, held by the solve's own first poll until 25 s")
        .isEqualTo(1);
    assertThat(answeredVia(id)).isEqualTo("push");
    assertThat(solves.token(id)).startsWith("0.");
    TaskRecord task = taskOf("busy-push");
    // the simulator records a push once its delivery ended, which may be after the fetch it rang
    PushRecord push =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () -> sim.pushes().stream().filter(p -> p.taskId() == task.id()).findFirst(),
                Optional::isPresent)
            .orElseThrow();
    List<RequestRecord> gets = resGets(task.id());
    assertThat(gets).as("res.php calls on the task").hasSize(1);
    assertThat(gets.get(0).at() - push.at())
        .as("ms from the push to its fetch (the old code: until the thread freed, 23 s or more)")
        .isBetween(0L, 10_000L);
    assertThat(Duration.between(solved.submittedAt(), solved.solvedAt()))
        .isLessThan(Duration.ofSeconds(15));

    // the fetch's job, the fallback, runs once the thread is free: it finds the call made
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> "SUCCEEDED".equals(pushedJobState("busy-push")));
    assertThat(resGets(task.id())).as("res.php calls on the task, after the job ran").hasSize(1);
  }

  private static String answeredVia(UUID id) {
    return solves
        .jdbc()
        .queryForObject(
            "SELECT answered_via FROM captchajobs.solve WHERE id = ?", String.class, id);
  }

  private static String pushedJobState(String businessKey) {
    List<String> states =
        solves
            .jdbc()
            .queryForList(
                "SELECT state FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?",
                String.class,
                "%\"Fetch pushed TURNSTILE " + businessKey + "\"%");
    return states.size() == 1 ? states.get(0) : "jobs: " + states;
  }

  static List<RequestRecord> resGets(long taskId) {
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
