package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A poll still under way when its solve is requeued and submitted afresh must not store the old
 * task's answer: answers are stored only for the task id of the current submission. A relay in
 * front of the simulator holds the first res.php call (the old task's) until the solve runs a new
 * task, then answers it with a token.
 */
class StaleAnswerAfterRequeueTest {

  static final String KEY = "staleAnswerKeySTALEanswerKey0123";

  CaptchaAiSimulator sim;
  Relay relay;
  EngineNode node;

  @BeforeEach
  void start() throws IOException {
    // Tasks that take a minute: the simulator itself never answers within the test.
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 5)
            .solveTime("turnstile", Duration.ofSeconds(60), Duration.ofSeconds(70))
            .build()
            .start();
    relay = new Relay(sim.baseUrl());
    node =
        EngineNode.start(
            EmbeddedPostgresSupport.newDatabase(),
            relay.baseUrl(),
            KEY,
            Map.of(
                "captchaai.first-poll-wait.TURNSTILE", "1s",
                "captchaai.provider-check-interval", "1h"));
  }

  @AfterEach
  void stop() {
    relay.release.countDown();
    node.close();
    relay.close();
    sim.close();
  }

  @Test
  void aPollOfTheTaskARequeueReplacedStoresNoAnswerAndLeavesTheNewSubmissionRunning() {
    SolveProbe solves = node.probe();
    UUID id = solves.turnstile("stale-answer");
    await().atMost(Duration.ofSeconds(30)).until(() -> relay.heldTask.get() != null);
    String oldTask = relay.heldTask.get();
    assertThat(solves.get(id).taskId()).isEqualTo(oldTask);

    // While that res.php call is under way, the solve fails (as at its deadline) and an operator
    // requeues it: a new submission with a new task.
    solves
        .jdbc()
        .update(
            "UPDATE captchajobs.solve SET status = 'FAILED', error_code = 'DEADLINE_EXCEEDED',"
                + " error_class = 'DEADLINE' WHERE id = ?",
            id);
    assertThat(node.part(OperatorQueries.class).requeue(id, node.part(SolveJobs.class)))
        .isPresent();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              Solve s = solves.get(id);
              return s.status() == SolveStatus.SUBMITTED
                  && s.submits() == 2
                  && s.taskId() != null
                  && !s.taskId().equals(oldTask);
            });
    String newTask = solves.get(id).taskId();

    relay.release.countDown(); // the old task's answer arrives now
    await().atMost(Duration.ofSeconds(30)).untilTrue(relay.answered);

    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              Solve s = solves.get(id);
              return s.status() == SolveStatus.SUBMITTED && newTask.equals(s.taskId());
            });
    assertThat(
            solves
                .jdbc()
                .queryForObject(
                    "SELECT token FROM captchajobs.solve WHERE id = ?", String.class, id))
        .as("the old task's token is stored nowhere")
        .isNull();
    assertThat(
            solves
                .jdbc()
                .queryForObject(
                    "SELECT count(*) FROM captchajobs.gate_slot WHERE solve_id = ?",
                    Integer.class,
                    id))
        .as("the new submission keeps its slot")
        .isEqualTo(1);
  }

  /**
   * Forwards every call to the simulator but the first res.php {@code get}: that one waits for
   * {@link #release} and answers a token.
   */
  static final class Relay implements AutoCloseable {
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicReference<String> heldTask = new AtomicReference<>();
    final AtomicBoolean answered = new AtomicBoolean();
    private final HttpServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final String target;

    Relay(String target) throws IOException {
      this.target = target;
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.setExecutor(Executors.newCachedThreadPool());
      server.createContext("/", this::handle);
      server.start();
    }

    String baseUrl() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String query = exchange.getRequestURI().getRawQuery();
      Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
      if (query != null) {
        form.putAll(form(query));
      }
      if (exchange.getRequestURI().getPath().endsWith("/res.php")
          && "get".equals(form.get("action"))
          && heldTask.compareAndSet(null, form.get("id"))) {
        try {
          release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        reply(exchange, 200, "{\"status\":1,\"request\":\"STALE-TOKEN-OF-THE-OLD-TASK\"}");
        answered.set(true);
        return;
      }
      try {
        HttpRequest.Builder forward =
            HttpRequest.newBuilder(
                    URI.create(
                        target
                            + exchange.getRequestURI().getPath()
                            + (query == null ? "" : "?" + query)))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType != null) {
          forward.header("Content-Type", contentType);
        }
        HttpResponse<String> r = http.send(forward.build(), HttpResponse.BodyHandlers.ofString());
        reply(exchange, r.statusCode(), r.body());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        reply(exchange, 502, "");
      }
    }

    private static void reply(HttpExchange exchange, int status, String text) throws IOException {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }

    private static Map<String, String> form(String encoded) {
      Map<String, String> out = new HashMap<>();
      for (String pair : encoded.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          out.put(
              URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
      return out;
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
