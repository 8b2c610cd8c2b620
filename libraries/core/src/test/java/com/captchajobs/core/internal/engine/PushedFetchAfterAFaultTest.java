package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
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
 * A push says the answer is ready; when the res.php call it rang for fails without an answer (a 502
 * page, a reset), the answer is still ready at the provider and its thread there idle. The fetch is
 * rung again 5 s after the failed call instead of leaving the answer to the fallback poll, here a
 * minute away. Over sockets: the simulator pushes to a receiver that hands each call to the node's
 * {@link Pingbacks}, as the app node does.
 */
class PushedFetchAfterAFaultTest {

  static final String KEY = "pushFaultKeyPUSHFAULTkeyPUSHF123";
  static final String SECRET = "pingback-secret-of-the-fault-fleet-0123456789";

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
            .solveTime("turnstile", Duration.ofSeconds(2), Duration.ofSeconds(3))
            .build()
            .start();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
    receiver.createContext(Pingbacks.PATH + "/", PushedFetchAfterAFaultTest::receive);
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
                // the fallback poll a minute after submit: only a fetch rung again comes sooner
                "captchaai.first-poll-wait.TURNSTILE",
                "60s",
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
  void aPushedFetchThatFailsIsRungAgainFiveSecondsAfterTheFailedCallNotLeftToTheFallbackPoll() {
    UUID id = solves.turnstile("pushed-fetch-fault");
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    // the task takes 2 s at least: the next res.php call is the fetch its push rings for
    sim.injectNext(Endpoint.RES, Fault.HTML_502);

    // the old code left the answer to the fallback poll, 60 s after the submit
    solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(45));

    TaskRecord task =
        sim.tasks().stream()
            .filter(t -> SolveProbe.pageUrl("pushed-fetch-fault").equals(t.pageUrl()))
            .findFirst()
            .orElseThrow();
    List<RequestRecord> gets =
        sim.requests().stream().filter(r -> r.resGet() && r.taskId() == task.id()).toList();
    assertThat(gets).as("the failed fetch, then the one rung again").hasSize(2);
    assertThat(gets.get(0).fault()).isEqualTo(Fault.HTML_502.name());
    assertThat(gets.get(0).at()).isGreaterThanOrEqualTo(task.readyAt());
    assertThat(gets.get(1).outcome()).isEqualTo("OK");
    assertThat(gets.get(1).at() - gets.get(0).at())
        .as("CaptchaAI's 5 s after a failed call")
        .isGreaterThanOrEqualTo(5_000);
  }

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
