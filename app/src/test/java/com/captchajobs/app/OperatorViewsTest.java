package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.internal.node.EngineParts;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The operator views under {@code /api/admin}: a batch of solves (two solved, one unsolvable) runs
 * through an app node with a worker, then each view answers as documented in operations.md, and
 * refuses an API token that is not an operator's (403) and no token (401).
 */
class OperatorViewsTest {

  static final String KEY = "operatorKeyOPERATORkey0123456789";
  static final String OPERATOR_TOKEN = TestApps.OPERATOR_TOKEN;

  static CaptchaAiSimulator sim;
  static ConfigurableApplicationContext app;
  static Api operator;
  static Api client;
  static List<UUID> solved = new ArrayList<>();
  static UUID failed;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    app =
        TestApps.appWithWorker(EmbeddedPostgresSupport.newDatabase(), sim.baseUrl(), KEY, Map.of());
    operator = new Api(TestApps.port(app), OPERATOR_TOKEN);
    client = new Api(TestApps.port(app), TestApps.API_TOKEN);
    for (String key : List.of("op-a", "op-b")) {
      solved.add(id(client.post("/api/solves", withBatch(RestFlowTest.turnstile(key), "night-1"))));
    }
    failed =
        id(
            client.post(
                "/api/solves",
                withBatch(
                    "{\"businessKey\":\"op-dead\",\"type\":\"TURNSTILE\",\"sitekey\":\""
                        + RestFlowTest.SITEKEY
                        + "\",\"pageUrl\":\"https://shop.example.test/unsolvable\"}",
                    "night-1")));
    var solves = app.getBean(CaptchaJobs.class).solves();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                solved.stream().allMatch(id -> solves.status(id).status() == SolveStatus.SOLVED)
                    && solves.status(failed).status() == SolveStatus.FAILED);
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
    if (sim != null) {
      sim.close();
    }
  }

  static String withBatch(String json, String batch) {
    return json.substring(0, json.length() - 1) + ",\"batch\":\"" + batch + "\"}";
  }

  static UUID id(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    return UUID.fromString(Api.json(r).get("id").stringValue());
  }

  @Test
  void theSolvesListFiltersByStatusTypeErrorCodeKeyPrefixBatchAndTimeWithPaging() {
    JsonNode all = Api.json(operator.get("/api/admin/solves?batch=night-1"));
    assertThat(all.get("items")).hasSize(3);
    assertThat(all.get("items").get(0).has("token")).isFalse();

    JsonNode dead =
        Api.json(
            operator.get(
                "/api/admin/solves?status=FAILED&type=TURNSTILE"
                    + "&errorCode=ERROR_CAPTCHA_UNSOLVABLE&keyPrefix=op-"));
    assertThat(dead.get("items")).hasSize(1);
    assertThat(dead.at("/items/0/id").stringValue()).isEqualTo(failed.toString());
    assertThat(dead.at("/items/0/errorClass").stringValue()).isEqualTo("unsolvable");

    assertThat(Api.json(operator.get("/api/admin/solves?keyPrefix=op-a")).get("items")).hasSize(1);
    assertThat(Api.json(operator.get("/api/admin/solves?keyPrefix=op_")).get("items"))
        .as("_ is not a wildcard")
        .isEmpty();
    JsonNode page1 = Api.json(operator.get("/api/admin/solves?batch=night-1&size=2&page=1"));
    assertThat(page1.get("items")).hasSize(1);
    assertThat(page1.get("page").intValue()).isEqualTo(1);
    assertThat(
            Api.json(
                    operator.get(
                        "/api/admin/solves?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z"))
                .get("items"))
        .isEmpty();

    HttpResponse<String> bad = operator.get("/api/admin/solves?status=LOST");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(Api.json(bad).get("field").stringValue()).isEqualTo("status");
  }

  @Test
  void theBatchSummaryCountsByStatusWithLatencyPercentiles() {
    JsonNode batch = Api.json(operator.get("/api/admin/batches/night-1"));
    assertThat(batch.get("total").longValue()).isEqualTo(3);
    assertThat(batch.at("/byStatus/SOLVED").longValue()).isEqualTo(2);
    assertThat(batch.at("/byStatus/FAILED").longValue()).isEqualTo(1);
    assertThat(batch.get("latencyP50Seconds").doubleValue()).isPositive();
    assertThat(batch.get("latencyP95Seconds").doubleValue())
        .isGreaterThanOrEqualTo(batch.get("latencyP50Seconds").doubleValue());
    assertThat(operator.get("/api/admin/batches/none").statusCode()).isEqualTo(404);
  }

  @Test
  void theGateShowsCapacityAndHolders() {
    JsonNode gate = Api.json(operator.get("/api/admin/gate"));
    assertThat(gate.get("capacity").intValue()).isEqualTo(5);
    assertThat(gate.get("holders").isArray()).isTrue();
    assertThat(gate.get("inFlight").intValue()).isEqualTo(gate.get("holders").size());
  }

  @Test
  void theBreakerIsShownAndClosed() {
    var breaker = EngineParts.find(app.getBean(CaptchaJobs.class), Breaker.class).orElseThrow();
    breaker.open("ERROR_WRONG_USER_KEY", "test: key revoked");
    try {
      JsonNode rows = Api.json(operator.get("/api/admin/breakers"));
      assertThat(rows).hasSize(1);
      assertThat(rows.at("/0/open").booleanValue()).isTrue();
      assertThat(rows.at("/0/errorCode").stringValue()).isEqualTo("ERROR_WRONG_USER_KEY");
      assertThat(rows.at("/0/openedAt").isNull()).isFalse();
      assertThat(operator.get("/api/admin/breakers").body()).doesNotContain(KEY);

      String fingerprint = rows.at("/0/keyFingerprint").stringValue();
      HttpResponse<String> closed =
          operator.send(
              operator
                  .request("/api/admin/breakers/" + fingerprint, operator.auth())
                  .DELETE()
                  .build());
      assertThat(closed.statusCode()).isEqualTo(200);
      assertThat(Api.json(closed).get("closedNow").booleanValue()).isTrue();
      assertThat(breaker.openState()).isEmpty();
    } finally {
      breaker.closeBreaker();
    }
  }

  @Test
  void aFailedSolveIsRequeuedAsAFreshSubmissionAndRecorded() {
    HttpResponse<String> notFailed = requeue(operator, solved.get(0).toString());
    assertThat(notFailed.statusCode()).isEqualTo(409);
    assertThat(requeue(operator, UUID.randomUUID().toString()).statusCode()).isEqualTo(404);

    var solves = app.getBean(CaptchaJobs.class).solves();
    int submitsBefore = solves.status(failed).submits();
    HttpResponse<String> r = requeue(operator, failed.toString());
    assertThat(r.statusCode()).isEqualTo(202);
    assertThat(Api.json(r).get("requeues").intValue()).isEqualTo(1);

    // the page URL is unsolvable again: a fresh submission, and it fails the same way
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                solves.status(failed).status() == SolveStatus.FAILED
                    && solves.status(failed).submits() > submitsBefore);
    JsonNode row = Api.json(operator.get("/api/admin/solves?keyPrefix=op-dead")).at("/items/0");
    assertThat(row.get("requeues").intValue()).isEqualTo(1);
    assertThat(row.get("requeuedErrorCode").stringValue()).isEqualTo("ERROR_CAPTCHA_UNSOLVABLE");
  }

  @Test
  void aSolveFailedLongerAgoThanTheDeadlineIsRequeuedWithAFreshDeadlineAndSubmittedAgain() {
    var solves = app.getBean(CaptchaJobs.class).solves();
    UUID old =
        id(
            client.post(
                "/api/solves",
                "{\"businessKey\":\"rq-old\",\"type\":\"TURNSTILE\",\"sitekey\":\""
                    + RestFlowTest.SITEKEY
                    + "\",\"pageUrl\":\"https://shop.example.test/unsolvable?rq-old\"}"));
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> solves.status(old).status() == SolveStatus.FAILED);
    // enqueued a day ago: far past captchaai.solve-deadline
    new org.springframework.jdbc.core.JdbcTemplate(app.getBean(javax.sql.DataSource.class))
        .update(
            "UPDATE captchajobs.solve SET created_at = now() - interval '1 day' WHERE id = ?", old);
    int submitsBefore = solves.status(old).submits();

    assertThat(requeue(operator, old.toString()).statusCode()).isEqualTo(202);

    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                solves.status(old).status() == SolveStatus.FAILED
                    && solves.status(old).submits() > submitsBefore);
    assertThat(solves.status(old).errorCode())
        .as("submitted afresh and failed as the provider answered, not at once past its deadline")
        .isEqualTo("ERROR_CAPTCHA_UNSOLVABLE");
  }

  @Test
  void aFailedSolveWhoseProxyWasScrubbedIsNotRequeuedButRefusedWith409AndTheReason() {
    var solves = app.getBean(CaptchaJobs.class).solves();
    UUID proxied =
        id(
            client.post(
                "/api/solves",
                "{\"businessKey\":\"rq-proxied\",\"type\":\"TURNSTILE\",\"sitekey\":\""
                    + RestFlowTest.SITEKEY
                    + "\",\"pageUrl\":\"https://shop.example.test/proxied\","
                    + "\"proxy\":\"user:secret@dead.proxy:3128\",\"proxyType\":\"HTTP\"}"));
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> solves.status(proxied).status() == SolveStatus.FAILED);

    HttpResponse<String> r = requeue(operator, proxied.toString());

    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/problem+json");
    assertThat(Api.json(r).get("title").stringValue()).isEqualTo("Cannot be rebuilt");
    assertThat(Api.json(r).get("detail").stringValue()).contains("proxy").doesNotContain("secret");
    JsonNode row = Api.json(operator.get("/api/admin/solves?keyPrefix=rq-proxied")).at("/items/0");
    assertThat(row.get("status").stringValue()).isEqualTo("FAILED");
    assertThat(row.get("requeues").intValue()).isZero();
  }

  @Test
  void everyOperatorViewRefusesAClientTokenWith403AndNoTokenWith401() {
    List<HttpRequest.Builder> views =
        List.of(
            client.request("/api/admin/solves", client.auth()).GET(),
            client.request("/api/admin/batches/night-1", client.auth()).GET(),
            client.request("/api/admin/gate", client.auth()).GET(),
            client.request("/api/admin/breakers", client.auth()).GET(),
            client.request("/api/admin/breakers/x", client.auth()).DELETE(),
            client
                .request("/api/admin/solves/" + failed + "/requeue", client.auth())
                .POST(HttpRequest.BodyPublishers.noBody()));
    for (HttpRequest.Builder view : views) {
      HttpResponse<String> r = client.send(view.build());
      assertThat(r.statusCode()).as(r.request().uri().toString()).isEqualTo(403);
      assertThat(r.headers().firstValue("Content-Type"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    }
    HttpResponse<String> anonymous =
        client.send(client.request("/api/admin/gate", null).GET().build());
    assertThat(anonymous.statusCode()).isEqualTo(401);
    // roles are apart: the operator role alone does not reach the client API
    assertThat(operator.get("/api/solves/" + failed).statusCode()).isEqualTo(403);
  }

  static HttpResponse<String> requeue(Api api, String id) {
    return api.send(
        api.request("/api/admin/solves/" + id + "/requeue", api.auth())
            .POST(HttpRequest.BodyPublishers.noBody())
            .build());
  }
}
