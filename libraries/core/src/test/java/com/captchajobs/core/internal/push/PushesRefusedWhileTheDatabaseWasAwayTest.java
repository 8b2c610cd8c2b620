package com.captchajobs.core.internal.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.db.LivenessLock;
import com.captchajobs.core.model.SolveStatus;
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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A push that comes while the database is away (an outage, a restart) is refused, and the provider
 * does not send it again: its answer, and its thread at the provider, would wait for the fallback
 * poll. When a worker's database connection is back (its liveness lock taken again), it rings the
 * fetch of every waiting task not called since the connection was lost, as a push would. Over
 * sockets, on real PostgreSQL: the receiver refuses the push with a 503 as a node without its
 * database does, and the liveness connection is ended by PostgreSQL ({@code pg_terminate_backend}).
 */
class PushesRefusedWhileTheDatabaseWasAwayTest {

  static final String KEY = "pushAwayKeyPUSHAWAYkeyPUSHAWAY12";
  static final String SECRET = "pingback-secret-of-the-away-fleet-0123456789";

  static CaptchaAiSimulator sim;
  static HttpServer receiver;
  static EngineNode node;
  static SolveProbe solves;
  static volatile boolean databaseAway = true;

  @BeforeAll
  static void start() throws IOException {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 5)
            .solveTime("turnstile", Duration.ofSeconds(1), Duration.ofSeconds(2))
            .build()
            .start();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
    receiver.createContext(Pingbacks.PATH + "/", PushesRefusedWhileTheDatabaseWasAwayTest::receive);
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
                // the fallback poll two minutes after submit: only a rung fetch comes sooner
                "captchaai.first-poll-wait.TURNSTILE",
                "120s",
                "captchaai.provider-check-interval",
                "1h"));
    solves = node.probe();
  }

  @AfterAll
  static void stop() {
    node.close();
    receiver.stop(0);
    sim.close();
  }

  @Test
  void aTaskWhosePushWasRefusedIsFetchedOnceTheWorkersDatabaseConnectionIsBack() {
    String key = "push-refused-while-away";
    UUID id = solves.turnstile(key);
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    TaskRecord task =
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> taskOf(key), t -> t != null && refusedPushOf(t));
    databaseAway = false;
    assertThat(getsOf(task)).as("no get before the connection is lost").isEmpty();

    int ended =
        solves
            .jdbc()
            .queryForObject(
                // pg_locks is the server's: other test classes' nodes hold their own liveness
                // locks in their own databases of this JVM's PostgreSQL
                "SELECT count(pg_terminate_backend(pid))::int FROM pg_locks"
                    + " WHERE locktype = 'advisory' AND classid::bigint = ?"
                    + " AND database = (SELECT oid FROM pg_database"
                    + " WHERE datname = current_database())",
                Integer.class,
                (long) LivenessLock.SPACE);
    assertThat(ended).as("the worker's liveness connection").isEqualTo(1);

    // the old code left the answer to the fallback poll, two minutes after the submit
    solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(30));
    List<RequestRecord> gets = getsOf(task);
    assertThat(gets).as("the one fetch rung when the connection was back").hasSize(1);
    assertThat(gets.get(0).outcome()).isEqualTo("OK");
  }

  private static TaskRecord taskOf(String key) {
    return sim.tasks().stream()
        .filter(t -> SolveProbe.pageUrl(key).equals(t.pageUrl()))
        .findFirst()
        .orElse(null);
  }

  private static boolean refusedPushOf(TaskRecord task) {
    return sim.pushes().stream().anyMatch(p -> p.taskId() == task.id() && p.status() == 503);
  }

  private static List<RequestRecord> getsOf(TaskRecord task) {
    return sim.requests().stream().filter(r -> r.resGet() && r.taskId() == task.id()).toList();
  }

  /** The receiver: refuses every push while the database is away, as a node without it does. */
  private static void receive(HttpExchange exchange) throws IOException {
    exchange.sendResponseHeaders(databaseAway ? 503 : 404, -1);
    exchange.close();
  }
}
