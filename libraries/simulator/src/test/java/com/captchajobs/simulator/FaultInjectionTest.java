package com.captchajobs.simulator;

import static com.captchajobs.simulator.ApiClient.params;
import static com.captchajobs.simulator.CaptchaAiSimulator.SANDBOX_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("unit")
class FaultInjectionTest {
  @RegisterExtension
  static final SimulatorExtension sim =
      new SimulatorExtension(CaptchaAiSimulator.builder().slowDelay(Duration.ofMillis(300)));

  static final Map<String, String> SUBMIT =
      params(
          "key",
          SANDBOX_KEY,
          "json",
          "1",
          "method",
          "turnstile",
          "sitekey",
          "s",
          "pageurl",
          "https://f.example");
  static final Map<String, String> BALANCE =
      params("key", SANDBOX_KEY, "json", "1", "action", "getbalance");

  ApiClient client;

  @BeforeEach
  void setUp() {
    sim.get().reset();
    client = new ApiClient(sim.get().baseUrl());
  }

  @Test
  void html502IsAnHtmlPageAndCreatesNoTask() {
    sim.get().injectNext(Endpoint.IN, Fault.HTML_502);
    HttpResponse<String> response = client.get("/in.php", SUBMIT);
    assertThat(response.statusCode()).isEqualTo(502);
    assertThat(response.body()).contains("<html>", "502 Bad Gateway");
    assertThat(sim.get().stats().acceptedSubmits()).isZero();
    assertThat(sim.get().stats().rejected("HTTP_502")).isEqualTo(1);
    // one-shot: the next call is normal
    assertThat(ApiClient.json(client.get("/in.php", SUBMIT)).get("status").asInt()).isEqualTo(1);
  }

  @Test
  void html500OnResIsAnHtmlPageAndStillCountsAsResCall() {
    sim.get().injectNext(Endpoint.RES, Fault.HTML_500);
    HttpResponse<String> response =
        client.get("/res.php", params("key", SANDBOX_KEY, "action", "get", "id", "1"));
    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.body()).contains("<html>");
    assertThat(sim.get().stats().resCalls()).isEqualTo(1);
  }

  @Test
  void plainTextAnswersInPlainFormDespiteJsonAndCreatesTheTask() {
    sim.get().injectNext(Endpoint.IN, Fault.PLAIN_TEXT);
    assertThat(client.get("/in.php", SUBMIT).body()).matches("OK\\|\\d+");
    assertThat(sim.get().stats().acceptedSubmits()).isEqualTo(1);
    sim.get().injectNext(Endpoint.RES, Fault.PLAIN_TEXT);
    assertThat(client.get("/res.php", BALANCE).body()).isEqualTo("15.50");
  }

  @Test
  void emptyBodyIsA200WithNothingInIt() {
    sim.get().injectNext(Endpoint.RES, Fault.EMPTY_BODY);
    HttpResponse<String> response = client.get("/res.php", BALANCE);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEmpty();
  }

  @Test
  void serverErrorCodesComeInTheRequestedFormat() {
    sim.get().injectNext(Endpoint.IN, Fault.SERVER_ERROR);
    sim.get().injectNext(Endpoint.IN, Fault.INTERNAL_SERVER_ERROR);
    sim.get().injectNext(Endpoint.RES, Fault.RATE_LIMIT);
    assertThat(ApiClient.json(client.get("/in.php", SUBMIT)).get("request").asString())
        .isEqualTo("ERROR_SERVER_ERROR");
    Map<String, String> plainSubmit =
        params("key", SANDBOX_KEY, "method", "turnstile", "sitekey", "s", "pageurl", "https://f");
    assertThat(client.get("/in.php", plainSubmit).body()).isEqualTo("ERROR_INTERNAL_SERVER_ERROR");
    assertThat(ApiClient.json(client.get("/res.php", BALANCE)).get("request").asString())
        .isEqualTo("ERROR_TOO_MUCH_REQUESTS");
    SimulatorStats stats = sim.get().stats();
    assertThat(stats.acceptedSubmits()).isZero();
    assertThat(stats.rejectedSubmitsByCode())
        .containsEntry("ERROR_SERVER_ERROR", 1L)
        .containsEntry("ERROR_INTERNAL_SERVER_ERROR", 1L);
  }

  @Test
  void slowAnswersAfterTheSlowDelayAndCreatesTheTask() {
    sim.get().injectNext(Endpoint.IN, Fault.SLOW);
    long started = System.nanoTime();
    HttpResponse<String> response = client.get("/in.php", SUBMIT);
    long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
    assertThat(ApiClient.json(response).get("status").asInt()).isEqualTo(1);
    assertThat(elapsedMillis).isGreaterThanOrEqualTo(300);
    assertThat(sim.get().stats().acceptedSubmits()).isEqualTo(1);
  }

  @Test
  void hangGivesNoAnswerAndTheClientTimesOut() throws Exception {
    sim.get().injectNext(Endpoint.RES, Fault.HANG);
    HttpClient http = HttpClient.newHttpClient();
    URI balance =
        URI.create(sim.get().baseUrl() + "/res.php?key=" + SANDBOX_KEY + "&action=getbalance");
    HttpRequest request = HttpRequest.newBuilder(balance).timeout(Duration.ofMillis(300)).build();
    assertThatThrownBy(() -> http.send(request, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(HttpTimeoutException.class);
    // the next call is answered: given time enough on a loaded machine (300 ms was not always)
    HttpRequest next = HttpRequest.newBuilder(balance).timeout(Duration.ofSeconds(10)).build();
    assertThat(http.send(next, HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("15.50");
  }

  @Test
  void resetClosesTheConnectionWithoutAResponse() {
    sim.get().injectNext(Endpoint.IN, Fault.RESET);
    assertThatThrownBy(() -> client.postForm("/in.php", SUBMIT))
        .isInstanceOf(UncheckedIOException.class)
        .hasCauseInstanceOf(IOException.class);
    assertThat(sim.get().stats().acceptedSubmits()).isZero();
    assertThat(sim.get().stats().rejected("RESET")).isEqualTo(1);
  }

  @Test
  void lostResponseCreatesAndCountsTheTaskButAnswersWithAn502() {
    sim.get().injectNext(Endpoint.IN, Fault.LOST_RESPONSE);
    HttpResponse<String> response = client.get("/in.php", SUBMIT);
    assertThat(response.statusCode()).isEqualTo(502);
    SimulatorStats stats = sim.get().stats();
    assertThat(stats.acceptedSubmits()).isEqualTo(1);
    assertThat(stats.inFlight()).isEqualTo(1);
    assertThat(stats.submitsByPageUrl()).containsEntry("https://f.example", 1L);
  }

  @Test
  void lostResponseCannotBeInjectedIntoRes() {
    assertThatThrownBy(() -> sim.get().injectNext(Endpoint.RES, Fault.LOST_RESPONSE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LOST_RESPONSE");
  }

  @Test
  void seededProbabilityFaultsAreReproducible() {
    List<String> first = outcomesOf(seeded(7));
    List<String> second = outcomesOf(seeded(7));
    List<String> otherSeed = outcomesOf(seeded(8));
    assertThat(first)
        .isEqualTo(second)
        .contains("502", "ERROR_SERVER_ERROR", "15.50")
        .isNotEqualTo(otherSeed);
  }

  @Test
  void resetRestartsTheSeededFaultSequence() {
    try (CaptchaAiSimulator faulty = seeded(7).build().start()) {
      List<String> before = outcomesOf(faulty);
      faulty.reset();
      assertThat(outcomesOf(faulty)).isEqualTo(before);
    }
  }

  private static CaptchaAiSimulator.Builder seeded(long seed) {
    return CaptchaAiSimulator.builder()
        .seed(seed)
        .fault(Fault.HTML_502, 0.2)
        .fault(Fault.SERVER_ERROR, 0.2);
  }

  private static List<String> outcomesOf(CaptchaAiSimulator.Builder builder) {
    try (CaptchaAiSimulator faulty = builder.build().start()) {
      return outcomesOf(faulty);
    }
  }

  private static List<String> outcomesOf(CaptchaAiSimulator faulty) {
    ApiClient c = new ApiClient(faulty.baseUrl());
    List<String> outcomes = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      HttpResponse<String> r =
          c.get("/res.php", params("key", SANDBOX_KEY, "action", "getbalance"));
      outcomes.add(r.statusCode() == 200 ? r.body() : String.valueOf(r.statusCode()));
    }
    return outcomes;
  }
}
