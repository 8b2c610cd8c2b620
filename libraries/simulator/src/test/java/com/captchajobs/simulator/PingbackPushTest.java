package com.captchajobs.simulator;

import static com.captchajobs.simulator.CaptchaAiSimulator.SANDBOX_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Pingback: a task submitted with {@code pingback=<url>} is pushed as {@code GET <url>?id=<task
 * id>&code=<answer>} (or {@code POST} with that form body) when done, with knobs to drop, duplicate
 * and delay pushes and to require registered hosts, and every push recorded in the simulator's push
 * log.
 */
@Tag("unit")
class PingbackPushTest {

  HttpServer receiver;
  final List<String> received = new CopyOnWriteArrayList<>();
  final List<Long> receivedAt = new CopyOnWriteArrayList<>();
  final List<String> methods = new CopyOnWriteArrayList<>();
  final List<String> bodies = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
    receiver.createContext(
        "/hook",
        exchange -> {
          received.add(exchange.getRequestURI().getRawQuery());
          methods.add(exchange.getRequestMethod());
          bodies.add(
              exchange.getRequestHeaders().getFirst("Content-Type")
                  + " "
                  + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          receivedAt.add(System.currentTimeMillis());
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
  }

  @AfterEach
  void stop() {
    receiver.stop(0);
  }

  String hook() {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook/solve-1";
  }

  CaptchaAiSimulator simulator(CaptchaAiSimulator.Builder builder) {
    return builder
        .account(SANDBOX_KEY, 5)
        .solveTime("turnstile", Duration.ofMillis(100), Duration.ofMillis(150))
        .solveTime("userrecaptcha", Duration.ofMillis(100), Duration.ofMillis(150))
        .build()
        .start();
  }

  String submit(CaptchaAiSimulator sim, String pageUrl) {
    return new ApiClient(sim.baseUrl())
        .submitJson(
            SANDBOX_KEY,
            "method",
            "turnstile",
            "sitekey",
            "0x4AAAAAAADnPIDROrmt1Wwj",
            "pageurl",
            pageUrl,
            "pingback",
            hook())
        .get("request")
        .asString();
  }

  @Test
  void aSolvedTaskIsPushedOnceWithItsIdAndAnswerAndTheLogRecordsIt() {
    try (CaptchaAiSimulator sim = simulator(CaptchaAiSimulator.builder())) {
      String id = submit(sim, "https://a.example/push");

      await().atMost(Duration.ofSeconds(5)).until(() -> sim.pushes().size() == 1);
      assertThat(received).hasSize(1);
      assertThat(received.get(0)).startsWith("id=" + id + "&code=").hasSizeGreaterThan(20);
      PushRecord push = sim.pushes().get(0);
      assertThat(push.event()).isEqualTo(PushRecord.SENT);
      assertThat(push.status()).isEqualTo(204);
      assertThat(push.taskId()).isEqualTo(Long.parseLong(id));
      assertThat(push.at()).isGreaterThanOrEqualTo(push.readyAt());
      assertThat(sim.tasks().get(0).polls()).isZero();
    }
  }

  @Test
  void aPostPushCarriesIdAndCodeInAFormBodyAndNothingInTheQuery() {
    try (CaptchaAiSimulator sim = simulator(CaptchaAiSimulator.builder().pingbackMethod("POST"))) {
      String id = submit(sim, "https://a.example/post-push");

      await().atMost(Duration.ofSeconds(5)).until(() -> sim.pushes().size() == 1);
      assertThat(methods).containsExactly("POST");
      assertThat(received.get(0)).isNull();
      assertThat(bodies.get(0))
          .startsWith("application/x-www-form-urlencoded id=" + id + "&code=")
          .hasSizeGreaterThan(60);
      assertThat(sim.pushes().get(0).status()).isEqualTo(204);
    }
  }

  @Test
  void withRegistrationRequiredOnlyARegisteredHostGetsPushesAndAddGetDelManageTheList() {
    try (CaptchaAiSimulator sim =
        simulator(CaptchaAiSimulator.builder().pingbackRegistration(true))) {
      ApiClient api = new ApiClient(sim.baseUrl());
      submit(sim, "https://a.example/unregistered");
      await().atMost(Duration.ofSeconds(5)).until(() -> sim.pushes().size() == 1);
      assertThat(sim.pushes().get(0).event()).isEqualTo(PushRecord.UNREGISTERED);
      assertThat(sim.pushes().get(0).status()).isZero();
      assertThat(received).isEmpty();

      assertThat(api.resJson(SANDBOX_KEY, "action", "add_pingback", "addr", "127.0.0.1"))
          .hasToString("{\"status\":1,\"request\":\"OK\"}");
      assertThat(api.resJson(SANDBOX_KEY, "action", "get_pingback").get("request").asString())
          .isEqualTo("127.0.0.1");
      submit(sim, "https://a.example/registered");
      await().atMost(Duration.ofSeconds(5)).until(() -> sim.pushes().size() == 2);
      assertThat(sim.pushes().get(1).event()).isEqualTo(PushRecord.SENT);
      assertThat(received).hasSize(1);

      api.resJson(SANDBOX_KEY, "action", "del_pingback", "addr", "all");
      assertThat(api.resJson(SANDBOX_KEY, "action", "get_pingback").get("request").asString())
          .isEqualTo("OK");
      submit(sim, "https://a.example/removed");
      await().atMost(Duration.ofSeconds(5)).until(() -> sim.pushes().size() == 3);
      assertThat(sim.pushes().get(2).event()).isEqualTo(PushRecord.UNREGISTERED);
      assertThat(received).hasSize(1);
    }
  }

  @Test
  void anUnsolvableTaskPushesItsErrorCode() {
    try (CaptchaAiSimulator sim = simulator(CaptchaAiSimulator.builder())) {
      submit(sim, "https://a.example/unsolvable/push");

      await().atMost(Duration.ofSeconds(5)).until(() -> sim.pushes().size() == 1);
      assertThat(received.get(0)).endsWith("&code=ERROR_CAPTCHA_UNSOLVABLE");
      assertThat(sim.pushes().get(0).error()).isTrue();
    }
  }

  @Test
  void droppedPushesAreNeverSentButLogged() {
    try (CaptchaAiSimulator sim = simulator(CaptchaAiSimulator.builder().pingbackDrop(1.0))) {
      submit(sim, "https://a.example/dropped");

      await().atMost(Duration.ofSeconds(5)).until(() -> sim.pushes().size() == 1);
      assertThat(sim.pushes().get(0).event()).isEqualTo(PushRecord.DROPPED);
      assertThat(sim.pushes().get(0).status()).isZero();
      assertThat(received).isEmpty();
    }
  }

  @Test
  void duplicatedAndDelayedPushesComeTwiceAfterTheDelay() {
    Duration delay = Duration.ofMillis(700);
    try (CaptchaAiSimulator sim =
        simulator(CaptchaAiSimulator.builder().pingbackDuplicate(1.0).pingbackDelay(delay))) {
      submit(sim, "https://a.example/twice");

      await().atMost(Duration.ofSeconds(5)).until(() -> sim.pushes().size() == 2);
      assertThat(received).hasSize(2);
      assertThat(received.get(0)).isEqualTo(received.get(1));
      assertThat(sim.pushes())
          .extracting(PushRecord::event)
          .containsExactlyInAnyOrder(PushRecord.SENT, PushRecord.DUPLICATE);
      for (PushRecord push : sim.pushes()) {
        assertThat(push.at() - push.readyAt()).isGreaterThanOrEqualTo(delay.toMillis());
      }
    }
  }

  @Test
  void theCommandLineTakesThePushKnobs() {
    SimulatorArgs args =
        SimulatorArgs.parse(
            "--pingback-drop",
            "0.3",
            "--pingback-duplicate",
            "0.2",
            "--pingback-delay",
            "500ms",
            "--pingback-method",
            "POST",
            "--pingback-registration");
    assertThat(args.pingbackMethod).isEqualTo("POST");
    assertThat(args.pingbackRegistration).isTrue();
    assertThat(args.pingbackDrop).isEqualTo(0.3);
    assertThat(args.pingbackDuplicate).isEqualTo(0.2);
    assertThat(args.pingbackDelay).isEqualTo(Duration.ofMillis(500));
  }
}
