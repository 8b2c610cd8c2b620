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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The API description is the wire: a running app node with a worker answers every documented status
 * of every operation (enqueue, conflict, claim, 401, 403, 404, 413, 415, 429 and the rest), and
 * each real answer is checked against {@code /v3/api-docs} by {@link WireValidator}: status,
 * content type, body schema (nullable fields included) and headers ({@code Location} a URI
 * reference, {@code Retry-After} a positive integer).
 */
class ApiDescriptionOnTheWireTest {

  static final String KEY = "wireKeyWIREkeyWIREkeyWIREkey0123";
  static final String CAPPED = "capped-wire-token-0123456789";
  static final String READER = "reader-wire-token-0123456789";
  static final String OTHER = "other-wire-token-01234567890";

  static CaptchaAiSimulator sim;
  static ConfigurableApplicationContext app;
  static WireValidator wire;
  static Api client;
  static Api operator;
  static Api anonymous;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    Map<String, String> extra = new LinkedHashMap<>();
    extra.put("captchajobs.api.clients.capped.token", CAPPED);
    extra.put("captchajobs.api.clients.capped.max-unfinished", "1");
    extra.put("captchajobs.api.clients.reader.token", READER);
    extra.put("captchajobs.api.clients.reader.read-rate", "0.001");
    extra.put("captchajobs.api.clients.reader.read-burst", "1");
    extra.put("captchajobs.api.clients.other.token", OTHER);
    app = TestApps.appWithWorker(EmbeddedPostgresSupport.newDatabase(), sim.baseUrl(), KEY, extra);
    int port = TestApps.port(app);
    client = new Api(port, TestApps.API_TOKEN);
    operator = new Api(port, TestApps.OPERATOR_TOKEN);
    anonymous = new Api(port, null);
    HttpResponse<String> docs = anonymous.send(anonymous.request("/v3/api-docs", null).build());
    assertThat(docs.statusCode()).isEqualTo(200);
    wire = new WireValidator(Api.json(docs));
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

  @Test
  void everyDocumentedStatusOfEveryOperationIsAnsweredAsDescribed() {
    var solves = app.getBean(CaptchaJobs.class).solves();
    JdbcTemplate jdbc = new JdbcTemplate(app.getBean(DataSource.class));

    // enqueue: 202, the same again 200, another payload 409, bad 400, 413, 415, 429, 401, 403
    String first = OperatorViewsTest.withBatch(RestFlowTest.turnstile("wire-1"), "wire-batch");
    UUID solved = id(check(client.post("/api/solves", first)));
    check(client.post("/api/solves", first));
    check(client.post("/api/solves", first.replace("/wire-1", "/wire-1-other")));
    check(client.post("/api/solves", "{\"businessKey\":\"wire-bad\",\"type\":\"TURNSTILE\"}"));
    check(client.post("/api/solves", "{\"pad\":\"" + "x".repeat(300_000) + "\"}"));
    check(
        client.send(
            client
                .request("/api/solves", client.auth())
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(first))
                .build()));
    Api capped = new Api(TestApps.port(app), CAPPED);
    assertThat(capped.post("/api/solves", RestFlowTest.turnstile("wire-cap-1")).statusCode())
        .isEqualTo(202);
    check(capped.post("/api/solves", RestFlowTest.turnstile("wire-cap-2")));
    check(anonymous.post("/api/solves", first));
    check(operator.post("/api/solves", first));

    // a solve that fails, one whose token expires unclaimed
    UUID failed =
        id(
            check(
                client.post(
                    "/api/solves",
                    "{\"businessKey\":\"wire-dead\",\"type\":\"TURNSTILE\",\"sitekey\":\""
                        + RestFlowTest.SITEKEY
                        + "\",\"pageUrl\":\"https://shop.example.test/unsolvable\"}")));
    UUID expiring = id(check(client.post("/api/solves", RestFlowTest.turnstile("wire-expiring"))));
    // the same label used by another client
    new Api(TestApps.port(app), OTHER)
        .post(
            "/api/solves",
            OperatorViewsTest.withBatch(RestFlowTest.turnstile("wire-other"), "wire-batch"));

    // status: 200 with null fields before it is submitted or solved, 404, 401, 403
    check(client.get("/api/solves/" + solved));
    check(client.get("/api/solves/" + UUID.randomUUID()));
    check(anonymous.get("/api/solves/" + solved));
    check(operator.get("/api/solves/" + solved));

    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                solves.status(solved).status() == SolveStatus.SOLVED
                    && solves.status(expiring).status() == SolveStatus.SOLVED
                    && solves.status(failed).status() == SolveStatus.FAILED);
    check(client.get("/api/solves/" + failed)); // errorCode and errorClass set

    // claim: 200 once, then 409; a failed solve 409; expired 410; 404, 401, 403
    check(client.claim(solved.toString()));
    check(client.claim(solved.toString()));
    check(client.claim(failed.toString()));
    jdbc.update(
        "UPDATE captchajobs.solve SET expires_at = now() - interval '1 second' WHERE id = ?",
        expiring);
    check(client.claim(expiring.toString()));
    check(client.claim(UUID.randomUUID().toString()));
    check(anonymous.claim(solved.toString()));
    check(operator.claim(solved.toString()));

    // report: 202 once after the claim, then 409; 400 naming verdict; 404, 401, 403, 413, 415
    String report = "/api/solves/" + solved + "/report";
    check(client.post(report, "{}"));
    check(client.post(report, "{\"verdict\":\"BAD\"}"));
    check(client.post(report, "{\"verdict\":\"GOOD\"}"));
    check(client.post("/api/solves/" + UUID.randomUUID() + "/report", "{\"verdict\":\"BAD\"}"));
    check(anonymous.post(report, "{\"verdict\":\"BAD\"}"));
    check(operator.post(report, "{\"verdict\":\"BAD\"}"));
    check(client.post(report, "{\"verdict\":\"" + "x".repeat(300_000) + "\"}"));
    check(
        client.send(
            client
                .request(report, client.auth())
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"verdict\":\"BAD\"}"))
                .build()));
    check(client.get("/api/solves/" + solved)); // with its report

    // events: the stream of a final solve (one event, then it ends), 404, 401, 403
    check(events(client, solved));
    check(events(client, UUID.randomUUID()));
    check(events(anonymous, solved));
    check(events(operator, solved));

    // over the read rate: status, claim and stream all 429
    Api reader = new Api(TestApps.port(app), READER);
    String readersOwn =
        Api.json(reader.post("/api/solves", RestFlowTest.turnstile("wire-r")))
            .get("id")
            .stringValue();
    assertThat(reader.get("/api/solves/" + readersOwn).statusCode()).isEqualTo(200);
    check(reader.get("/api/solves/" + readersOwn));
    check(reader.claim(readersOwn));
    check(events(reader, UUID.fromString(readersOwn)));
    check(reader.post("/api/solves/" + readersOwn + "/report", "{\"verdict\":\"BAD\"}"));

    // the operator views: each answer, and 401 and 403 for every one
    check(operator.get("/api/admin/solves?batch=wire-batch"));
    check(operator.get("/api/admin/solves?status=LOST"));
    check(operator.get("/api/admin/batches/wire-batch?client=default"));
    check(operator.get("/api/admin/batches/wire-batch"));
    check(operator.get("/api/admin/batches/no-such-batch"));
    check(operator.get("/api/admin/gate"));
    check(operator.get("/api/admin/breakers"));
    check(delete(operator, "/api/admin/breakers/unknown-key"));
    check(requeue(operator, UUID.randomUUID()));
    check(requeue(operator, solved));
    check(requeue(operator, failed));
    for (Api who : new Api[] {anonymous, client}) {
      check(who.get("/api/admin/solves"));
      check(who.get("/api/admin/batches/wire-batch"));
      check(who.get("/api/admin/gate"));
      check(who.get("/api/admin/breakers"));
      check(delete(who, "/api/admin/breakers/unknown-key"));
      check(requeue(who, failed));
    }
    var breaker = EngineParts.find(app.getBean(CaptchaJobs.class), Breaker.class).orElseThrow();
    breaker.open("ERROR_WRONG_USER_KEY", "test: key revoked");
    try {
      String fingerprint =
          Api.json(operator.get("/api/admin/breakers")).at("/0/keyFingerprint").stringValue();
      check(delete(operator, "/api/admin/breakers/" + fingerprint));
    } finally {
      breaker.closeBreaker();
    }

    assertThat(wire.checked())
        .as("every documented status was answered and checked")
        .containsExactlyInAnyOrderElementsOf(wire.documented());
  }

  /**
   * The validator fails where the description of before was wrong: a field sent as null but typed
   * as a plain string, and a relative {@code Location} declared {@code format: uri}.
   */
  @Test
  void theValidatorRefusesTheWireAgainstTheDescriptionAsItWasBefore() {
    HttpResponse<String> docs = anonymous.send(anonymous.request("/v3/api-docs", null).build());
    tools.jackson.databind.node.ObjectNode before =
        (tools.jackson.databind.node.ObjectNode) Api.json(docs);
    ((tools.jackson.databind.node.ObjectNode)
            before.at("/components/schemas/SolveStatusView/properties/errorCode"))
        .put("type", "string");
    ((tools.jackson.databind.node.ObjectNode)
            before.at("/paths/~1api~1solves/post/responses/202/headers/Location/schema"))
        .put("format", "uri");
    WireValidator old = new WireValidator(before);

    HttpResponse<String> enqueued = client.post("/api/solves", RestFlowTest.turnstile("wire-old"));
    HttpResponse<String> fresh = client.get("/api/solves/" + id(enqueued));

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> old.check(enqueued, enqueued.body()))
        .hasMessageContaining("Location");
    assertThat(Api.json(fresh).get("errorCode").isNull()).isTrue();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> old.check(fresh, fresh.body()))
        .hasMessageContaining("errorCode");
    wire.check(fresh, fresh.body()); // the description as it is accepts both
  }

  private static HttpResponse<String> check(HttpResponse<String> r) {
    return wire.check(r, r.body());
  }

  private static UUID id(HttpResponse<String> r) {
    return UUID.fromString(Api.json(r).get("id").stringValue());
  }

  private static HttpResponse<String> events(Api as, UUID id) {
    return as.send(
        as.request("/api/solves/" + id + "/events", as.auth())
            .header("Accept", "text/event-stream")
            .build());
  }

  private static HttpResponse<String> delete(Api as, String path) {
    return as.send(as.request(path, as.auth()).DELETE().build());
  }

  private static HttpResponse<String> requeue(Api as, UUID id) {
    return as.send(
        as.request("/api/admin/solves/" + id + "/requeue", as.auth())
            .POST(HttpRequest.BodyPublishers.noBody())
            .build());
  }
}
