package com.captchajobs.worker.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.engine.Breaker;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The breaker of a worker node against callers that must not close it: anonymous and API-client
 * calls on the management port, and every caller on the server port. Only the operator closes it.
 */
class AttacksOnTheWorkerManagementPortTest {

  static final String KEY = "secWorkerKeySECworkerKey01234567";
  static final String CLIENT_TOKEN = "worker-client-token-0123456789";

  static CaptchaAiSimulator sim;
  static WorkerNode node;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    node =
        WorkerNode.start(
            EmbeddedPostgresSupport.newDatabase(),
            sim.baseUrl(),
            KEY,
            Map.of("captchajobs.api.clients.app.token", CLIENT_TOKEN));
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  private HttpResponse<String> deleteBreaker(int port, String token) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/breaker"))
            .DELETE();
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return node.send(b.build());
  }

  @Test
  void anonymousCallerCannotCloseTheBreakerOnTheManagementPort() {
    node.bean(Breaker.class).open("ERROR_IP_NOT_ALLOWED", "test");

    HttpResponse<String> r = deleteBreaker(node.managementPort(), null);

    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(node.bean(Breaker.class).openState()).isPresent();
  }

  @Test
  void anApiClientTokenCannotCloseTheBreakerOnTheManagementPort() {
    node.bean(Breaker.class).open("ERROR_IP_NOT_ALLOWED", "test");

    HttpResponse<String> r = deleteBreaker(node.managementPort(), CLIENT_TOKEN);

    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(node.bean(Breaker.class).openState()).isPresent();
  }

  @Test
  void nobodyClosesTheBreakerOnTheServerPortNotEvenTheOperator() {
    node.bean(Breaker.class).open("ERROR_IP_NOT_ALLOWED", "test");

    for (String token : new String[] {null, CLIENT_TOKEN, WorkerNode.OPERATOR_TOKEN}) {
      assertThat(deleteBreaker(node.port(), token).statusCode()).isIn(401, 403, 404);
    }
    assertThat(node.bean(Breaker.class).openState()).isPresent();
  }

  @Test
  void anonymousCallerSeesTheHealthStatusButNotTheGateOrTheKeyFingerprint() {
    node.bean(Breaker.class).open("ERROR_IP_NOT_ALLOWED", "test");
    HttpResponse<String> anonymous =
        node.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + node.managementPort() + "/actuator/health"))
                .build());

    assertThat(anonymous.body()).contains("status").doesNotContain("components", "ERROR_IP");
    assertThat(node.get("/actuator/health").body()).contains("ERROR_IP_NOT_ALLOWED");
  }

  @Test
  void theOperatorClosesTheBreakerOnTheManagementPort() {
    node.bean(Breaker.class).open("ERROR_IP_NOT_ALLOWED", "test");

    HttpResponse<String> r = deleteBreaker(node.managementPort(), WorkerNode.OPERATOR_TOKEN);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(node.bean(Breaker.class).openState()).isEmpty();
  }
}
