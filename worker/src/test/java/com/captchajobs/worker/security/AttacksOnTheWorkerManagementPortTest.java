package com.captchajobs.worker.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A worker node's management surface against callers that must not use it: anonymous, API-client
 * and wrong-token calls to every management endpoint on the management port, and every caller on
 * the server port. Only the operator reads the endpoints and closes the breaker.
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

  static final List<String> MANAGEMENT_PATHS =
      List.of(
          "/actuator",
          "/actuator/breaker",
          "/actuator/metrics",
          "/actuator/metrics/jvm.threads.live",
          "/actuator/prometheus",
          "/actuator/info");

  static Stream<Arguments> managementEndpointsAndCallers() {
    return MANAGEMENT_PATHS.stream()
        .flatMap(
            path ->
                Stream.of(
                    Arguments.of(path, "anonymous", null, 401),
                    Arguments.of(path, "an API client", CLIENT_TOKEN, 403),
                    Arguments.of(path, "a wrong token", "not-a-token-0123456789", 401),
                    Arguments.of(path, "the operator", WorkerNode.OPERATOR_TOKEN, 200)));
  }

  @ParameterizedTest(name = "{1} reading {0} on the worker's management port gets {3}")
  @MethodSource("managementEndpointsAndCallers")
  void nobodyButAnOperatorReadsAManagementEndpointOfTheWorker(
      String path, String who, String token, int status) {
    HttpResponse<String> r = get(node.managementPort(), path, token);

    assertThat(r.statusCode()).isEqualTo(status);
    if (status != 200) {
      assertThat(r.body()).doesNotContain("jvm_", "\"names\"", "\"_links\"");
    }
  }

  static Stream<Arguments> everyCallerOnTheServerPort() {
    return MANAGEMENT_PATHS.stream()
        .flatMap(
            path ->
                Stream.of(
                    Arguments.of(path, "anonymous", null),
                    Arguments.of(path, "an API client", CLIENT_TOKEN),
                    Arguments.of(path, "the operator", WorkerNode.OPERATOR_TOKEN)));
  }

  @ParameterizedTest(name = "{1} reading {0} on the worker's server port gets no Actuator answer")
  @MethodSource("everyCallerOnTheServerPort")
  void theWorkersServerPortServesNoManagementEndpointToAnyone(
      String path, String who, String token) {
    HttpResponse<String> r = get(node.port(), path, token);

    assertThat(r.statusCode()).isIn(401, 403, 404);
    assertThat(r.body()).doesNotContain("jvm_", "\"names\"", "\"_links\"");
  }

  private HttpResponse<String> get(int port, String path, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
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
