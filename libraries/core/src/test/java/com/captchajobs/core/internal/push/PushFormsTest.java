package com.captchajobs.core.internal.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Pushes the way 2captcha documents them, against the simulator set to match: {@code POST <url>}
 * with the form body {@code id=...&code=...}, sent only to hosts registered with {@code
 * add_pingback}. The worker registers the pingback URL's host when it starts, so pushes arrive;
 * once the address is removed ({@code del_pingback}) the provider is silent and polling alone
 * answers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PushFormsTest {

  static final String KEY = "pushFormsKeyPUSHformsKEY01234567";
  static final String SECRET = "pingback-secret-of-the-forms-test-0123456789";
  static final HttpClient HTTP = HttpClient.newHttpClient();

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
            .solveTime("turnstile", Duration.ofSeconds(1), Duration.ofSeconds(3))
            .pingbackMethod("POST")
            .pingbackRegistration(true)
            .build()
            .start();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
    receiver.createContext(Pingbacks.PATH + "/", PushFormsTest::receive);
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
  @Order(1)
  void theWorkerRegistersItsHostAtStartAndPostFormPushesRingForNineOfTenSolvesAtLeast() {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> resPhp("get_pingback").contains("127.0.0.1"));

    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ids.add(solves.turnstile("form-push-" + i));
    }
    ids.forEach(id -> solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(60)));

    List<TaskRecord> tasks = tasksOf("form-push-");
    await().atMost(Duration.ofSeconds(5)).until(() -> acknowledged(tasks) == tasks.size());
    assertThat(acknowledged(tasks)).as("pushes acknowledged of 10").isGreaterThanOrEqualTo(9);
    for (UUID id : ids) {
      assertThat(solves.token(id)).startsWith("0.");
    }
    // a figure for the report, not a threshold: answer ready -> the res.php call that fetched it
    System.out.printf(
        "PushFormsTest: POST form push, registration required: %d of %d acknowledged; answer"
            + " ready -> fetched mean %.3f s; res.php gets per solve %.2f%n",
        acknowledged(tasks),
        tasks.size(),
        readyToFetchedMeanSeconds(tasks),
        tasks.stream().mapToLong(TaskRecord::polls).average().orElse(0));
  }

  @Test
  @Order(2)
  void aProviderThatNeverPushesLeavesEveryAnswerToThePollsAndNothingIsSentToAnUnregisteredHost() {
    assertThat(resPhp("del_pingback&addr=127.0.0.1")).isEqualTo("OK");
    assertThat(resPhp("get_pingback")).doesNotContain("127.0.0.1");

    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(solves.turnstile("silent-" + i));
    }
    ids.forEach(id -> solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(60)));

    List<TaskRecord> tasks = tasksOf("silent-");
    assertThat(sim.pushes())
        .filteredOn(p -> tasks.stream().anyMatch(t -> t.id() == p.taskId()))
        .hasSize(3)
        .allSatisfy(
            p -> {
              assertThat(p.event()).isEqualTo(PushRecord.UNREGISTERED);
              assertThat(p.status()).isZero();
            });
    assertThat(tasks).allSatisfy(t -> assertThat(t.polls()).isGreaterThanOrEqualTo(1));
  }

  private static long acknowledged(List<TaskRecord> tasks) {
    return sim.pushes().stream()
        .filter(p -> PushRecord.SENT.equals(p.event()) && p.status() == 200)
        .filter(p -> tasks.stream().anyMatch(t -> t.id() == p.taskId()))
        .count();
  }

  /** From the simulator's records: each task's ready instant to the res.php get that fetched it. */
  private static double readyToFetchedMeanSeconds(List<TaskRecord> tasks) {
    List<RequestRecord> requests = sim.requests();
    return tasks.stream()
            .mapToLong(
                t ->
                    requests.stream()
                            .filter(
                                r -> r.resGet() && r.taskId() == t.id() && r.at() >= t.readyAt())
                            .mapToLong(RequestRecord::at)
                            .min()
                            .orElseThrow()
                        - t.readyAt())
            .average()
            .orElseThrow()
        / 1000.0;
  }

  private static List<TaskRecord> tasksOf(String prefix) {
    return sim.tasks().stream()
        .filter(t -> t.pageUrl() != null && t.pageUrl().startsWith(SolveProbe.pageUrl(prefix)))
        .toList();
  }

  private static String resPhp(String action) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(
                      URI.create(sim.baseUrl() + "/res.php?key=" + KEY + "&action=" + action))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The receiver: what the app node's filter does, on a port of its own; the body is not read. */
  private static void receive(HttpExchange exchange) throws IOException {
    String[] parts =
        exchange.getRequestURI().getPath().substring(Pingbacks.PATH.length() + 1).split("/");
    Pingbacks target = pingbacks;
    int status = 404;
    if (parts.length == 3 && target != null) {
      status =
          target.receive(parts[0], parts[1], parts[2]) == Pingbacks.PushResult.RANG ? 200 : 404;
    }
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }
}
