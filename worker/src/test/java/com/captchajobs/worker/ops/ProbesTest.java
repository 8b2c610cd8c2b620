package com.captchajobs.worker.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kubernetes probes of a worker node: an open breaker, or a provider that does not answer, makes it
 * not ready (readiness 503) and never not live (liveness 200), and it is ready again once the cause
 * is gone.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProbesTest {

  static final String KEY = "opsProbesKeyOPSprobesKeyOPS12345";
  static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void anOpenBreakerMakesAWorkerNotReadyButStillLiveUntilItIsClosed() {
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
        WorkerNode node = WorkerNode.onFreshDatabase(sim, KEY, Map.of())) {
      assertThat(node.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
      assertThat(node.get("/actuator/health/liveness").statusCode()).isEqualTo(200);

      node.bean(Breaker.class).open("ERROR_WRONG_USER_KEY", "test: the key was revoked");

      HttpResponse<String> readiness = node.get("/actuator/health/readiness");
      assertThat(readiness.statusCode()).isEqualTo(503);
      JsonNode ready = JSON.readTree(readiness.body());
      assertThat(ready.get("status").stringValue()).isEqualTo("DOWN");
      assertThat(ready.at("/components/breaker/status").stringValue()).isEqualTo("DOWN");
      assertThat(ready.at("/components/breaker/details/errorCode").stringValue())
          .isEqualTo("ERROR_WRONG_USER_KEY");
      HttpResponse<String> liveness = node.get("/actuator/health/liveness");
      assertThat(liveness.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(liveness.body()).get("status").stringValue()).isEqualTo("UP");

      node.bean(Breaker.class).closeBreaker();
      assertThat(node.get("/actuator/health/readiness").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aProviderThatDoesNotAnswerMakesAWorkerNotReadyButStillLive() {
    CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    try (WorkerNode node =
        WorkerNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchaai.provider-check-interval", "1s",
                "captchaai.read-timeout", "1s",
                "captchaai.connect-timeout", "1s"))) {
      assertThat(node.get("/actuator/health/readiness").statusCode()).isEqualTo(200);

      sim.close(); // the provider is gone
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> node.get("/actuator/health/readiness").statusCode() == 503);
      JsonNode ready = JSON.readTree(node.get("/actuator/health/readiness").body());
      assertThat(ready.at("/components/provider/status").stringValue()).isEqualTo("DOWN");
      assertThat(ready.at("/components/provider/details/provider").stringValue())
          .isEqualTo("unreachable");
      assertThat(ready.at("/components/breaker/status").stringValue()).isEqualTo("UP");
      assertThat(node.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
    } finally {
      sim.close();
    }
  }
}
