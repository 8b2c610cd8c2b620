package com.captchajobs.worker.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The breaker and the start of a worker node as an operator sees them: a rejected key reports the
 * node DOWN on the management port, the Actuator endpoint closes the breaker, and a dashboard
 * without credentials stops the node at start. The breaker itself is core's {@code BreakerTest}.
 */
@Isolated
@ExtendWith(OutputCaptureExtension.class)
class BreakerAndStartupTest {

  static final String GOOD_KEY = "breakerGoodKeyBREAKERgoodKey1234";

  /** Well-formed (32 characters) but unknown to the provider. */
  static final String UNKNOWN_KEY = "unknownKeyUNKNOWNkeyUNKNOWNkey12";

  static CaptchaAiSimulator sim;

  @BeforeAll
  static void start() {
    sim =
        CaptchaAiSimulator.builder()
            .account(GOOD_KEY, 5)
            .timeScale(0.05)
            .ipBan(1000, java.time.Duration.ofMinutes(5))
            .build()
            .start();
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  @Test
  void aNodeStartedWithARejectedKeyStartsWithTheBreakerOpenAndReportsDown(CapturedOutput output)
      throws Exception {
    try (WorkerNode node = WorkerNode.onFreshDatabase(sim, UNKNOWN_KEY, Map.of())) {
      // Health details are for an operator, on the management port.
      HttpResponse<String> health = node.get("/actuator/health");

      assertThat(health.statusCode()).isEqualTo(503);
      assertThat(health.body())
          .contains("\"DOWN\"")
          .contains("ERROR_KEY_DOES_NOT_EXIST")
          .doesNotContain(UNKNOWN_KEY);
      assertThat(node.bean(Breaker.class).openState()).isPresent();
      assertThat(output.getAll()).contains("rejected the API key").doesNotContain(UNKNOWN_KEY);
    }
  }

  @Test
  void anOperatorClosesTheBreakerThroughTheActuatorEndpoint() throws Exception {
    try (WorkerNode node = WorkerNode.onFreshDatabase(sim, GOOD_KEY, Map.of())) {
      node.bean(Breaker.class).open("ERROR_WRONG_USER_KEY", "test");
      HttpClient http = HttpClient.newHttpClient();
      URI uri = URI.create("http://127.0.0.1:" + node.managementPort() + "/actuator/breaker");
      String operator = "Bearer " + WorkerNode.OPERATOR_TOKEN;

      HttpResponse<String> shown =
          http.send(
              HttpRequest.newBuilder(uri).header("Authorization", operator).build(),
              HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> closed =
          http.send(
              HttpRequest.newBuilder(uri).header("Authorization", operator).DELETE().build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(shown.body())
          .contains("\"open\":true")
          .contains("ERROR_WRONG_USER_KEY")
          .doesNotContain(GOOD_KEY);
      assertThat(closed.statusCode()).isEqualTo(200);
      assertThat(closed.body()).contains("\"open\":false").contains("\"closedNow\":true");
      assertThat(node.bean(Breaker.class).openState()).isEmpty();
    }
  }

  @Test
  void aWorkerNodeWhoseCapExceedsThePlanRefusesToStartNamingTheProperty() {
    assertThatThrownBy(
            () -> WorkerNode.onFreshDatabase(sim, GOOD_KEY, Map.of("captchaai.threads", "10")))
        .hasStackTraceContaining("captchaai.threads=10 exceeds the plan's 5 threads");
  }

  @Test
  void aWorkerServingTheDashboardWithoutCredentialsRefusesToStartNamingBothProperties() {
    assertThatThrownBy(
            () ->
                WorkerNode.onFreshDatabase(
                    sim, GOOD_KEY, Map.of("captchajobs.dashboard.enabled", "true")))
        .hasStackTraceContaining("captchajobs.dashboard.username")
        .hasStackTraceContaining("captchajobs.dashboard.password");
  }
}
