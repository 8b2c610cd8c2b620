package com.captchajobs.simulator;

import static com.captchajobs.simulator.ApiClient.params;
import static com.captchajobs.simulator.CaptchaAiSimulator.SANDBOX_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

@Tag("unit")
class SubmitPollRoundTripTest {
  @RegisterExtension
  static final SimulatorExtension sim =
      new SimulatorExtension(
          CaptchaAiSimulator.builder()
              .account(SANDBOX_KEY, 50)
              // long enough that a poll right after in.php comes before the task is ready
              .solveTime("userrecaptcha", Duration.ofMillis(1000), Duration.ofMillis(1200))
              .solveTime("turnstile", Duration.ofMillis(1000), Duration.ofMillis(1200))
              .solveTime("base64", Duration.ofMillis(50), Duration.ofMillis(100))
              .solveTime("post", Duration.ofMillis(50), Duration.ofMillis(100))
              .solveTime("geetest", Duration.ofMillis(50), Duration.ofMillis(100))
              .solveTime("cloudflare_challenge", Duration.ofMillis(50), Duration.ofMillis(100)));

  static final byte[] IMAGE = new byte[500];
  ApiClient client;

  @BeforeEach
  void setUp() {
    sim.get().reset();
    client = new ApiClient(sim.get().baseUrl());
  }

  @Test
  void jsonSubmitIsNotReadyFirstAndThenReturnsAToken() {
    JsonNode submitted =
        client.submitJson(
            SANDBOX_KEY,
            "method",
            "userrecaptcha",
            "googlekey",
            "6Le-site",
            "pageurl",
            "https://a.example/1");
    assertThat(submitted.get("status").asInt()).isEqualTo(1);
    assertThat(submitted.get("request").isNumber()).isTrue();
    String id = submitted.get("request").asString();

    JsonNode first = client.poll(SANDBOX_KEY, id);
    assertThat(first.get("status").asInt()).isZero();
    assertThat(first.get("request").asString()).isEqualTo("CAPCHA_NOT_READY");

    JsonNode solved = awaitSolved(id);
    assertThat(solved.get("request").asString()).startsWith("03AGdBq2").hasSizeGreaterThan(48);
    assertThat(solved.has("result")).isFalse();
    assertThat(client.poll(SANDBOX_KEY, id)).isEqualTo(solved);
  }

  @Test
  void plainTextSubmitAndPollUseOkPipeAndBareCodes() {
    HttpResponse<String> submitted =
        client.get(
            "/in.php",
            params(
                "key",
                SANDBOX_KEY,
                "method",
                "turnstile",
                "sitekey",
                "0x4AAA",
                "pageurl",
                "https://a.example/2"));
    assertThat(submitted.statusCode()).isEqualTo(200);
    assertThat(submitted.body()).matches("OK\\|\\d+");
    String id = submitted.body().substring(3);

    assertThat(client.get("/res.php", params("key", SANDBOX_KEY, "action", "get", "id", id)).body())
        .isEqualTo("CAPCHA_NOT_READY");
    await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(20))
        .untilAsserted(
            () ->
                assertThat(
                        client
                            .get("/res.php", params("key", SANDBOX_KEY, "action", "get", "id", id))
                            .body())
                    .startsWith("OK|0."));
  }

  @Test
  void formPostSubmitIsAccepted() {
    HttpResponse<String> submitted =
        client.postForm(
            "/in.php",
            params(
                "key",
                SANDBOX_KEY,
                "json",
                "1",
                "method",
                "base64",
                "body",
                Base64.getEncoder().encodeToString(IMAGE)));
    JsonNode body = ApiClient.json(submitted);
    assertThat(body.get("status").asInt()).isEqualTo(1);
    assertThat(body.get("request").isString()).isTrue();
    JsonNode solved = awaitSolved(body.get("request").asString());
    assertThat(solved.get("request").asString()).matches("[a-z0-9]{5,6}");
  }

  @Test
  void multipartPostWithFileAndKeyInBodyIsAccepted() {
    HttpResponse<String> submitted =
        client.postMultipart(
            "/in.php",
            params("key", SANDBOX_KEY, "method", "post", "json", "1"),
            "captcha.png",
            IMAGE);
    JsonNode body = ApiClient.json(submitted);
    assertThat(body.get("status").asInt()).as(submitted.body()).isEqualTo(1);
    awaitSolved(body.get("request").asString());
  }

  @Test
  void multipartPostCanCarryTokenParametersToo() {
    HttpResponse<String> submitted =
        client.postMultipart(
            "/in.php",
            params(
                "key",
                SANDBOX_KEY,
                "method",
                "userrecaptcha",
                "googlekey",
                "6Le",
                "pageurl",
                "https://a.example/mp"),
            null,
            null);
    assertThat(submitted.body()).matches("OK\\|\\d+");
  }

  @Test
  void geetestAnswerIsAJsonObjectInsideTheRequestString() {
    JsonNode v3 =
        client.submitJson(
            SANDBOX_KEY,
            "method",
            "geetest",
            "gt",
            "gt1",
            "challenge",
            "ch1",
            "pageurl",
            "https://g.example");
    JsonNode solved = awaitSolved(v3.get("request").asString());
    JsonNode answer = ApiClient.JSON.readTree(solved.get("request").asString());
    assertThat(answer.has("challenge") && answer.has("validate") && answer.has("seccode")).isTrue();

    JsonNode v4 =
        client.submitJson(
            SANDBOX_KEY,
            "method",
            "geetest",
            "version",
            "4",
            "gt",
            "cid",
            "pageurl",
            "https://g.example");
    JsonNode v4Answer =
        ApiClient.JSON.readTree(
            awaitSolved(v4.get("request").asString()).get("request").asString());
    assertThat(v4Answer.get("captcha_id").asString()).isEqualTo("cid");
  }

  @Test
  void enterpriseAndCloudflareAnswersCarryResultAndUserAgent() {
    JsonNode enterprise =
        client.submitJson(
            SANDBOX_KEY,
            "method",
            "userrecaptcha",
            "enterprise",
            "1",
            "googlekey",
            "6Le",
            "pageurl",
            "https://e.example");
    JsonNode solved = awaitSolved(enterprise.get("request").asString());
    assertThat(solved.get("result").asString()).isEqualTo(solved.get("request").asString());
    assertThat(solved.get("user_agent").asString()).startsWith("Mozilla/5.0");

    JsonNode cf =
        client.submitJson(
            SANDBOX_KEY,
            "method",
            "cloudflare_challenge",
            "pageurl",
            "https://cf.example",
            "proxy",
            "user:pass@10.0.0.1:8080",
            "proxytype",
            "HTTP");
    assertThat(cf.get("request").isString()).isTrue();
    JsonNode cfSolved = awaitSolved(cf.get("request").asString());
    assertThat(cfSolved.get("result").asString()).isNotBlank();
    assertThat(cfSolved.get("user_agent").asString()).startsWith("Mozilla/5.0");
  }

  @Test
  void stringIdsMakesEveryJsonIdAString() {
    try (CaptchaAiSimulator strings =
        CaptchaAiSimulator.builder().stringIds(true).build().start()) {
      JsonNode submitted =
          new ApiClient(strings.baseUrl())
              .submitJson(
                  SANDBOX_KEY,
                  "method",
                  "userrecaptcha",
                  "googlekey",
                  "k",
                  "pageurl",
                  "https://s.example");
      assertThat(submitted.get("request").isString()).isTrue();
      assertThat(submitted.get("request").asString()).containsOnlyDigits();
    }
  }

  @Test
  void threadsinfoIsABareObjectWithThreadsAsString() {
    client.submitJson(
        SANDBOX_KEY, "method", "userrecaptcha", "googlekey", "k", "pageurl", "https://t.example");
    HttpResponse<String> info =
        client.get("/res.php", params("key", SANDBOX_KEY, "action", "threadsinfo"));
    JsonNode body = ApiClient.json(info);
    assertThat(body.get("threads").isString()).isTrue();
    assertThat(body.get("threads").asString()).isEqualTo("50");
    assertThat(body.get("working_threads").isInt()).isTrue();
    assertThat(body.get("working_threads").asInt()).isEqualTo(1);
    assertThat(body.has("status")).isFalse();
  }

  @Test
  void getbalanceAndReportsAnswerLikeTheRealService() {
    assertThat(client.resJson(SANDBOX_KEY, "action", "getbalance").get("request").asString())
        .isEqualTo("15.50");
    assertThat(client.get("/res.php", params("key", SANDBOX_KEY, "action", "getbalance")).body())
        .isEqualTo("15.50");
    String id =
        client
            .submitJson(
                SANDBOX_KEY, "method", "turnstile", "sitekey", "s", "pageurl", "https://r.example")
            .get("request")
            .asString();
    assertThat(
            client.resJson(SANDBOX_KEY, "action", "reportbad", "id", id).get("request").asString())
        .isEqualTo("OK_REPORT_RECORDED");
    assertThat(
            client
                .get("/res.php", params("key", SANDBOX_KEY, "action", "reportgood", "id", id))
                .body())
        .isEqualTo("OK_REPORT_RECORDED");
  }

  @Test
  void eachRecordedReportIsKeptPerTaskAndAnUnknownTaskIsNotReported() {
    String id =
        client
            .submitJson(
                SANDBOX_KEY, "method", "turnstile", "sitekey", "s", "pageurl", "https://q.example")
            .get("request")
            .asString();
    client.resJson(SANDBOX_KEY, "action", "reportbad", "id", id);
    client.resJson(SANDBOX_KEY, "action", "reportbad", "id", id);
    client.resJson(SANDBOX_KEY, "action", "reportgood", "id", id);
    assertThat(
            client.resJson(SANDBOX_KEY, "action", "reportbad", "id", "1").get("request").asString())
        .isEqualTo("ERROR_WRONG_CAPTCHA_ID");

    long task = Long.parseLong(id);
    assertThat(sim.get().reports(task))
        .extracting(ReportRecord::action)
        .containsExactly(ReportRecord.BAD, ReportRecord.BAD, ReportRecord.GOOD);
    assertThat(sim.get().reports()).hasSize(3);
    sim.get().reset();
    assertThat(sim.get().reports()).isEmpty();
  }

  @Test
  void resPhpRequestErrorsHaveTheirCodes() {
    assertThat(client.resJson(SANDBOX_KEY, "id", "1").get("request").asString())
        .isEqualTo("ERROR_EMPTY_ACTION");
    assertThat(client.resJson(SANDBOX_KEY, "action", "get").get("request").asString())
        .isEqualTo("ERROR_WRONG_ID_FORMAT");
    assertThat(client.resJson(SANDBOX_KEY, "action", "get", "id", "abc").get("request").asString())
        .isEqualTo("ERROR_WRONG_ID_FORMAT");
    assertThat(
            client.resJson(SANDBOX_KEY, "action", "get", "id", "12345").get("request").asString())
        .isEqualTo("ERROR_WRONG_CAPTCHA_ID");
  }

  @Test
  void expiredTaskIdsAreUnknown() {
    try (CaptchaAiSimulator shortLived =
        CaptchaAiSimulator.builder()
            .taskTtl(Duration.ofMillis(200))
            .timeScale(0.001)
            .build()
            .start()) {
      ApiClient c = new ApiClient(shortLived.baseUrl());
      String id =
          c.submitJson(
                  SANDBOX_KEY,
                  "method",
                  "turnstile",
                  "sitekey",
                  "s",
                  "pageurl",
                  "https://x.example")
              .get("request")
              .asString();
      await()
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () ->
                  c.poll(SANDBOX_KEY, id)
                      .get("request")
                      .asString()
                      .equals("ERROR_WRONG_CAPTCHA_ID"));
    }
  }

  private JsonNode awaitSolved(String id) {
    AtomicReference<JsonNode> last = new AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              last.set(client.poll(SANDBOX_KEY, id));
              return last.get().get("status").asInt() == 1;
            });
    return last.get();
  }

  static Map<String, String> with(Map<String, String> base, String name, String value) {
    base.put(name, value);
    return base;
  }
}
