package com.captchajobs.simulator;

import static com.captchajobs.simulator.CaptchaAiSimulator.SANDBOX_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The request log and the task records, the provider's own account of a run: every in.php and
 * res.php call with its task id, outcome and fault, in process and over the admin API.
 */
@Tag("unit")
class RequestLogTest {

  CaptchaAiSimulator simulator() {
    return CaptchaAiSimulator.builder()
        .account(SANDBOX_KEY, 5)
        // long enough that the first poll, right after the submit, finds the task not ready even
        // on a loaded machine
        .solveTime("turnstile", Duration.ofSeconds(3), Duration.ofSeconds(4))
        .build()
        .start();
  }

  String submit(ApiClient api, String pageUrl) {
    return api.submitJson(
            SANDBOX_KEY,
            "method",
            "turnstile",
            "sitekey",
            "0x4AAAAAAADnPIDROrmt1Wwj",
            "pageurl",
            pageUrl)
        .get("request")
        .asString();
  }

  @Test
  void everyCallIsLoggedWithItsTaskIdOutcomeAndFaultButNeverTheKey() {
    try (CaptchaAiSimulator sim = simulator()) {
      ApiClient api = new ApiClient(sim.baseUrl());
      String id = submit(api, "https://a.example/log");
      api.poll(SANDBOX_KEY, id);
      sim.injectNext(Endpoint.RES, Fault.HTML_502);
      api.get("/res.php", ApiClient.params("key", SANDBOX_KEY, "action", "get", "id", id));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> api.poll(SANDBOX_KEY, id).get("status").asInt() == 1);

      var log = sim.requests();
      long task = Long.parseLong(id);
      assertThat(log.get(0))
          .extracting(RequestRecord::endpoint, RequestRecord::taskId, RequestRecord::outcome)
          .containsExactly(RequestRecord.IN, task, "OK");
      assertThat(log.get(1))
          .extracting(RequestRecord::resGet, RequestRecord::taskId, RequestRecord::outcome)
          .containsExactly(true, task, "CAPCHA_NOT_READY");
      assertThat(log.get(2))
          .extracting(RequestRecord::outcome, RequestRecord::fault, RequestRecord::reachedService)
          .containsExactly("FAULT", "HTML_502", false);
      assertThat(log.get(log.size() - 1).outcome()).isEqualTo("OK");
      assertThat(log).allMatch(r -> r.keyFingerprint().equals("sand…"));
      assertThat(log).extracting(RequestRecord::at).isSorted();
    }
  }

  @Test
  void aLostInPhpReplyIsLoggedWithTheTaskItCreated() {
    try (CaptchaAiSimulator sim = simulator()) {
      ApiClient api = new ApiClient(sim.baseUrl());
      sim.injectNext(Endpoint.IN, Fault.LOST_RESPONSE);
      api.get(
          "/in.php",
          ApiClient.params(
              "key",
              SANDBOX_KEY,
              "method",
              "turnstile",
              "sitekey",
              "0x4AAAAAAADnPIDROrmt1Wwj",
              "pageurl",
              "https://a.example/lost"));

      RequestRecord r = sim.requests().get(0);
      assertThat(r.fault()).isEqualTo("LOST_RESPONSE");
      assertThat(r.delivered()).isFalse();
      assertThat(r.taskId()).isEqualTo(sim.tasks().get(0).id());
    }
  }

  @Test
  void theAdminApiServesTheRequestLogAndTheTaskRecords() {
    try (CaptchaAiSimulator sim = simulator()) {
      ApiClient api = new ApiClient(sim.baseUrl());
      String id = submit(api, "https://a.example/admin");

      JsonNode requests = ApiClient.json(api.get("/requests", Map.of()));
      JsonNode tasks = ApiClient.json(api.get("/tasks", Map.of()));

      assertThat(requests.get(0).get("taskId").asLong()).isEqualTo(Long.parseLong(id));
      assertThat(requests.get(0).get("endpoint").asString()).isEqualTo("in.php");
      assertThat(tasks.get(0).get("subject").asString()).isEqualTo("https://a.example/admin");
      assertThat(tasks.get(0).get("acceptedAt").asLong()).isPositive();
    }
  }

  @Test
  void resetClearsTheRequestLog() {
    try (CaptchaAiSimulator sim = simulator()) {
      submit(new ApiClient(sim.baseUrl()), "https://a.example/reset");
      sim.reset();
      assertThat(sim.requests()).isEmpty();
    }
  }
}
