package com.captchajobs.simulator;

import static com.captchajobs.simulator.ApiClient.params;
import static com.captchajobs.simulator.CaptchaAiSimulator.SANDBOX_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

@Tag("unit")
class StatsTest {
  static final String OTHER_KEY = "otherkeyotherkeyotherkeyotherkey";

  @RegisterExtension
  static final SimulatorExtension sim =
      new SimulatorExtension(
          CaptchaAiSimulator.builder()
              .account(SANDBOX_KEY, 10)
              .account(OTHER_KEY, 10)
              // long enough that a poll right after in.php comes before the task is ready
              .solveTime("turnstile", Duration.ofMillis(1000), Duration.ofMillis(1000))
              .solveTime("base64", Duration.ofMillis(50), Duration.ofMillis(50)));

  ApiClient client;

  @BeforeEach
  void setUp() {
    sim.get().reset();
    client = new ApiClient(sim.get().baseUrl());
  }

  private String submitTurnstile(String key, String pageUrl) {
    return client
        .submitJson(key, "method", "turnstile", "sitekey", "0x4", "pageurl", pageUrl)
        .get("request")
        .asString();
  }

  @Test
  void sameLogicalRequestTwiceCountsOneDuplicateAndSubmitsArePerPageUrl() {
    submitTurnstile(SANDBOX_KEY, "https/biz/1");
    submitTurnstile(SANDBOX_KEY, "https/biz/1");
    submitTurnstile(SANDBOX_KEY, "https/biz/2");
    String image = Base64.getEncoder().encodeToString(new byte[200]);
    client.submitJson(SANDBOX_KEY, "method", "base64", "body", image);
    client.submitJson(
        SANDBOX_KEY, "method", "base64", "body", Base64.getEncoder().encodeToString(new byte[201]));

    SimulatorStats stats = sim.get().stats();
    assertThat(stats.acceptedSubmits()).isEqualTo(5);
    assertThat(stats.duplicateSubmits()).isEqualTo(1);
    assertThat(stats.submitsByPageUrl())
        .containsOnly(
            org.assertj.core.api.Assertions.entry("https/biz/1", 2L),
            org.assertj.core.api.Assertions.entry("https/biz/2", 1L));
  }

  @Test
  void statsArePerKeyAndSummedOverKeys() {
    submitTurnstile(SANDBOX_KEY, "https://k/1");
    submitTurnstile(OTHER_KEY, "https://k/2");
    submitTurnstile(OTHER_KEY, "https://k/3");
    assertThat(sim.get().stats(SANDBOX_KEY).acceptedSubmits()).isEqualTo(1);
    assertThat(sim.get().stats(OTHER_KEY).acceptedSubmits()).isEqualTo(2);
    SimulatorStats all = sim.get().stats();
    assertThat(all.acceptedSubmits()).isEqualTo(3);
    assertThat(all.inFlight()).isEqualTo(3);
    assertThat(all.maxInFlight()).isEqualTo(3);
    assertThat(sim.get().stats(OTHER_KEY).maxInFlight()).isEqualTo(2);
  }

  @Test
  void fetchLagIsMeasuredFromAnswerReadyToFirstSuccessfulGet() {
    String id = submitTurnstile(SANDBOX_KEY, "https://lag/1");
    assertThat(client.poll(SANDBOX_KEY, id).get("request").asString())
        .isEqualTo("CAPCHA_NOT_READY");
    await().atMost(Duration.ofSeconds(5)).until(() -> sim.get().stats().inFlight() == 0);
    // let the answer sit unfetched for at least 200 ms
    await().pollDelay(Duration.ofMillis(200)).until(() -> true);
    assertThat(client.poll(SANDBOX_KEY, id).get("status").asInt()).isEqualTo(1);
    client.poll(SANDBOX_KEY, id); // repeat gets do not change the lag

    SimulatorStats stats = sim.get().stats();
    assertThat(stats.solvedTasks()).isEqualTo(1);
    assertThat(stats.resCalls()).isEqualTo(3);
    assertThat(stats.pollsPerSolvedTask()).isEqualTo(3.0);
    assertThat(stats.fetchLagMaxSeconds()).isBetween(0.2, 3.0);
    assertThat(stats.fetchLagP50Seconds()).isEqualTo(stats.fetchLagMaxSeconds());
    assertThat(stats.fetchLagP95Seconds()).isEqualTo(stats.fetchLagMaxSeconds());
    assertThat(stats.fetchLagMeanSeconds()).isCloseTo(stats.fetchLagMaxSeconds(), within(1e-9));
  }

  @Test
  void statsEndpointServesTheRecordAsJson() throws Exception {
    submitTurnstile(SANDBOX_KEY, "https://json/1");
    client.submitJson(SANDBOX_KEY, "method", "nope");
    JsonNode all = ApiClient.json(client.get("/stats", params()));
    assertThat(all.get("acceptedSubmits").asLong()).isEqualTo(1);
    assertThat(all.get("rejectedSubmitsByCode").get("ERROR_NO_SUCH_METHOD").asLong()).isEqualTo(1);
    assertThat(all.get("submitsByPageUrl").get("https://json/1").asLong()).isEqualTo(1);
    assertThat(all.get("inFlightSeries").isArray()).isTrue();
    assertThat(all.get("inFlightSeries").get(1).get(1).asInt()).isEqualTo(1);
    for (String field :
        new String[] {
          "inFlight",
          "maxInFlight",
          "duplicateSubmits",
          "resCalls",
          "solvedTasks",
          "pollsPerSolvedTask",
          "fetchLagP50Seconds",
          "fetchLagP95Seconds",
          "fetchLagMaxSeconds",
          "fetchLagMeanSeconds",
          "threadSeconds"
        }) {
      assertThat(all.has(field)).as(field).isTrue();
    }
    assertThat(
            ApiClient.json(client.get("/stats", params("key", OTHER_KEY)))
                .get("acceptedSubmits")
                .asLong())
        .isZero();

    HttpResponse<String> reset =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(sim.get().baseUrl() + "/reset"))
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(reset.statusCode()).isEqualTo(200);
    assertThat(sim.get().stats().acceptedSubmits()).isZero();
    assertThat(client.get("/health", params()).body()).isEqualTo("{\"status\":\"UP\"}");
    assertThat(client.get("/nothing-here", params()).statusCode()).isEqualTo(404);
  }

  @Test
  void resetForgetsTasksButKeepsAccounts() {
    String id = submitTurnstile(SANDBOX_KEY, "https://reset/1");
    sim.get().reset();
    assertThat(client.poll(SANDBOX_KEY, id).get("request").asString())
        .isEqualTo("ERROR_WRONG_CAPTCHA_ID");
    assertThat(sim.get().stats().inFlight()).isZero();
    assertThat(
            client
                .submitJson(
                    SANDBOX_KEY,
                    "method",
                    "turnstile",
                    "sitekey",
                    "s",
                    "pageurl",
                    "https://reset/2")
                .get("status")
                .asInt())
        .isEqualTo(1);
  }
}
