package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveState;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.Solves;
import com.captchajobs.worker.testing.WorkerNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A rejected key stops every node; a cap above the plan stops the worker at start. */
@ExtendWith(OutputCaptureExtension.class)
class BreakerAndPreflightTest {

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
  void aWrongKeyOpensTheBreakerAndASecondNodeThenMakesNoInPhpCall() {
    String db = EmbeddedPostgresSupport.newDatabase();
    Map<String, String> noPreflight = Map.of("captchaai.preflight", "false");
    try (WorkerNode first = WorkerNode.start(db, sim.baseUrl(), UNKNOWN_KEY, noPreflight)) {
      Solves solves = new Solves(first);
      long rejectedBefore = sim.stats().rejected("ERROR_KEY_DOES_NOT_EXIST");
      UUID one = solves.turnstile("breaker-1");
      Solve failed = solves.awaitStatus(one, SolveState.FAILED);
      assertThat(failed.errorCode()).isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
      assertThat(failed.errorClass()).isEqualTo(ErrorClass.CREDENTIAL);
      assertThat(first.bean(Breaker.class).openState()).isPresent();
      long rejectedAfterFirst = sim.stats().rejected("ERROR_KEY_DOES_NOT_EXIST");
      assertThat(rejectedAfterFirst).isEqualTo(rejectedBefore + 1);

      try (WorkerNode second = WorkerNode.start(db, sim.baseUrl(), UNKNOWN_KEY, noPreflight)) {
        first.close();
        UUID two = new Solves(second).turnstile("breaker-2");
        Solve alsoFailed = new Solves(second).awaitStatus(two, SolveState.FAILED);

        assertThat(alsoFailed.errorCode()).isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
        assertThat(alsoFailed.errorClass()).isEqualTo(ErrorClass.CREDENTIAL);
        assertThat(sim.stats().rejected("ERROR_KEY_DOES_NOT_EXIST")).isEqualTo(rejectedAfterFirst);
        assertThat(sim.stats().submitsByPageUrl()).doesNotContainKey(Solves.pageUrl("breaker-2"));
      }
    }
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
  void anOperatorClosingTheBreakerLetsSubmissionsResume() {
    String db = EmbeddedPostgresSupport.newDatabase();
    try (WorkerNode node = WorkerNode.start(db, sim.baseUrl(), GOOD_KEY, Map.of())) {
      Breaker breaker = node.bean(Breaker.class);
      breaker.open("ERROR_IP_NOT_ALLOWED", "test");
      Solves solves = new Solves(node);
      assertThat(
              solves
                  .awaitStatus(solves.turnstile("breaker-closed-1"), SolveState.FAILED)
                  .errorCode())
          .isEqualTo("ERROR_IP_NOT_ALLOWED");

      assertThat(breaker.closeBreaker()).isTrue();
      assertThat(
              solves.awaitStatus(solves.turnstile("breaker-closed-2"), SolveState.SOLVED).submits())
          .isEqualTo(1);
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
  void aWorkerServingTheDashboardWithoutCredentialsRefusesToStartNamingBothProperties() {
    assertThatThrownBy(
            () ->
                WorkerNode.onFreshDatabase(
                    sim, GOOD_KEY, Map.of("captchajobs.dashboard.enabled", "true")))
        .hasStackTraceContaining("captchajobs.dashboard.username")
        .hasStackTraceContaining("captchajobs.dashboard.password");
  }

  @Test
  void preflightRefusesACapAboveThePlan() {
    assertThatThrownBy(
            () -> WorkerNode.onFreshDatabase(sim, GOOD_KEY, Map.of("captchaai.threads", "10")))
        .hasStackTraceContaining("captchaai.threads=10 exceeds the plan's 5 threads");
  }
}
