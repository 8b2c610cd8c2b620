package com.captchajobs.simulator;

import static com.captchajobs.simulator.CaptchaAiSimulator.SANDBOX_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

@Tag("unit")
class ScriptedOutcomesTest {
  @RegisterExtension
  static final SimulatorExtension sim =
      new SimulatorExtension(
          CaptchaAiSimulator.builder()
              .account(SANDBOX_KEY, 1)
              // long enough that a poll right after in.php comes before the task is ready, even
              // on a busy machine (at 100 ms a CI run once saw it ready already)
              .solveTime("turnstile", Duration.ofMillis(1500), Duration.ofMillis(1500))
              .solveTime("userrecaptcha", Duration.ofMillis(100), Duration.ofMillis(100)));

  ApiClient client;

  @BeforeEach
  void setUp() {
    sim.get().reset();
    client = new ApiClient(sim.get().baseUrl());
  }

  @Test
  void unsolvablePageurlEndsEveryTaskUnsolvableOnceReadyAndFreesTheThread() {
    for (int i = 0; i < 2; i++) {
      String id = submit("https://shop.example/unsolvable/checkout");
      assertThat(client.poll(SANDBOX_KEY, id).get("request").asString())
          .isEqualTo("CAPCHA_NOT_READY");
      assertThat(awaitFinal(id).get("request").asString()).isEqualTo("ERROR_CAPTCHA_UNSOLVABLE");
    }
    SimulatorStats stats = sim.get().stats();
    assertThat(stats.solvedTasks()).isZero();
    assertThat(stats.inFlight()).isZero();
  }

  @Test
  void unsolvableOncePageurlFailsOnlyTheFirstTask() {
    // the rule reads the pageurl whatever the method: a reCAPTCHA here, ready in 100 ms, since
    // this test never needs a task that is not ready yet
    String page = "https://shop.example/unsolvable-once/42";
    assertThat(awaitFinal(submitRecaptcha(page)).get("request").asString())
        .isEqualTo("ERROR_CAPTCHA_UNSOLVABLE");
    assertThat(awaitFinal(submitRecaptcha(page)).get("status").asInt()).isEqualTo(1);
  }

  @Test
  void deadProxyEndsTheTaskWithProxyConnectionFailed() {
    String id =
        client
            .submitJson(
                SANDBOX_KEY,
                "method",
                "userrecaptcha",
                "googlekey",
                "g",
                "pageurl",
                "https://p.example",
                "proxy",
                "user:pw@dead.proxy:3128",
                "proxytype",
                "HTTP")
            .get("request")
            .asString();
    assertThat(awaitFinal(id).get("request").asString()).isEqualTo("ERROR_PROXY_CONNECTION_FAILED");
    assertThat(sim.get().stats().inFlight()).isZero();
  }

  private String submit(String pageUrl) {
    JsonNode accepted =
        client.submitJson(SANDBOX_KEY, "method", "turnstile", "sitekey", "s", "pageurl", pageUrl);
    assertThat(accepted.get("status").asInt()).as(accepted.toString()).isEqualTo(1);
    return accepted.get("request").asString();
  }

  private String submitRecaptcha(String pageUrl) {
    JsonNode accepted =
        client.submitJson(
            SANDBOX_KEY, "method", "userrecaptcha", "googlekey", "g", "pageurl", pageUrl);
    assertThat(accepted.get("status").asInt()).as(accepted.toString()).isEqualTo(1);
    return accepted.get("request").asString();
  }

  private JsonNode awaitFinal(String id) {
    AtomicReference<JsonNode> last = new AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              last.set(client.poll(SANDBOX_KEY, id));
              return !last.get().get("request").asString().equals("CAPCHA_NOT_READY");
            });
    return last.get();
  }
}
