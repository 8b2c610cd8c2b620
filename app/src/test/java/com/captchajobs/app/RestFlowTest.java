package com.captchajobs.app;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/** The REST API end to end: app node with an in-process worker, real PostgreSQL, the simulator. */
class RestFlowTest {

  static final String KEY = "restflowKeyRESTFLOWkey0123456789";
  static final String SITEKEY = "0x4AAAAAAADnPIDROrmt1Wwj";

  static final String OTHER_TOKEN = "other-client-token-0123456789";

  static CaptchaAiSimulator sim;
  static ConfigurableApplicationContext app;
  static Api api;
  static HttpServer receiver;
  static final BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();

  record Delivery(byte[] body, String signature, String timestamp) {}

  @BeforeAll
  static void start() throws IOException {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        "/hook",
        exchange -> {
          deliveries.add(
              new Delivery(
                  exchange.getRequestBody().readAllBytes(),
                  exchange.getRequestHeaders().getFirst("X-CaptchaJobs-Signature"),
                  exchange.getRequestHeaders().getFirst("X-CaptchaJobs-Timestamp")));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
    app =
        TestApps.appWithWorker(
            EmbeddedPostgresSupport.newDatabase(),
            sim.baseUrl(),
            KEY,
            Map.of(
                "captchaai.token-ttl.RECAPTCHA_V2",
                "1s",
                "captchajobs.webhook.allowed-hosts",
                "http://127.0.0.1:" + receiver.getAddress().getPort(),
                "captchajobs.api.clients.other.token",
                OTHER_TOKEN));
    api = new Api(TestApps.port(app), TestApps.API_TOKEN);
  }

  @AfterAll
  static void stop() {
    receiver.stop(0);
    app.close();
    sim.close();
  }

  static String turnstile(String businessKey) {
    return "{\"businessKey\":\""
        + businessKey
        + "\",\"type\":\"TURNSTILE\",\"sitekey\":\""
        + SITEKEY
        + "\",\"pageUrl\":\""
        + SolveProbe.pageUrl(businessKey)
        + "\"}";
  }

  static JsonNode awaitStatus(String id, String status) {
    await()
        .atMost(Duration.ofSeconds(40))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                Api.json(api.get("/api/solves/" + id)).get("status").stringValue().equals(status));
    return Api.json(api.get("/api/solves/" + id));
  }

  @Test
  void theSameKeyAndPayloadTwiceIsOneSolveAndOneInPhpCallAndAnotherPayloadIs409() {
    HttpResponse<String> first = api.post("/api/solves", turnstile("rest-idem"));
    HttpResponse<String> again = api.post("/api/solves", turnstile("rest-idem"));
    String id = Api.json(first).get("id").stringValue();

    assertThat(first.statusCode()).isEqualTo(202);
    assertThat(first.headers().firstValue("Location")).hasValue("/api/solves/" + id);
    assertThat(Api.json(first).get("status").stringValue()).isEqualTo("QUEUED");
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(Api.json(again).get("id").stringValue()).isEqualTo(id);

    HttpResponse<String> conflict =
        api.post(
            "/api/solves",
            turnstile("rest-idem")
                .replace(SolveProbe.pageUrl("rest-idem"), "https://other.example.test/"));
    BadRequestsTest.assertProblem(conflict, 409, "businessKey");
    assertThat(Api.json(conflict).get("existingId").stringValue()).isEqualTo(id);

    awaitStatus(id, "SOLVED");
    api.post("/api/solves", turnstile("rest-idem"));
    assertThat(sim.stats().submitsByPageUrl().get(SolveProbe.pageUrl("rest-idem"))).isEqualTo(1L);
  }

  @Test
  void theStatusNeverShowsTheTokenAndTheClaimHandsItOutOnceThen409() {
    String id = Api.json(api.post("/api/solves", turnstile("rest-claim"))).get("id").stringValue();
    BadRequestsTest.assertProblem(api.claim(id), 409, null);

    JsonNode solved = awaitStatus(id, "SOLVED");
    assertThat(solved.has("token")).isFalse();
    assertThat(solved.get("businessKey").stringValue()).isEqualTo("rest-claim");
    assertThat(solved.get("type").stringValue()).isEqualTo("TURNSTILE");
    assertThat(solved.get("solvedAt").isNull()).isFalse();

    HttpResponse<String> claim = api.claim(id);
    assertThat(claim.statusCode()).isEqualTo(200);
    assertThat(claim.headers().firstValue("Cache-Control")).hasValue("no-store");
    JsonNode token = Api.json(claim);
    assertThat(token.get("token").stringValue()).isNotBlank();
    assertThat(token.get("expiresAt").stringValue())
        .isEqualTo(solved.get("expiresAt").stringValue());

    BadRequestsTest.assertProblem(api.claim(id), 409, null);
    assertThat(awaitStatus(id, "CLAIMED").toString())
        .doesNotContain(token.get("token").stringValue());
  }

  @Test
  void aClaimAfterTheTokenExpiredIs410() {
    String body =
        "{\"businessKey\":\"rest-expiry\",\"type\":\"RECAPTCHA_V2\",\"sitekey\":"
            + "\"6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf\",\"pageUrl\":\""
            + SolveProbe.pageUrl("rest-expiry")
            + "\"}";
    String id = Api.json(api.post("/api/solves", body)).get("id").stringValue();
    Instant expiresAt = Instant.parse(awaitStatus(id, "SOLVED").get("expiresAt").stringValue());
    await().atMost(Duration.ofSeconds(5)).until(() -> Instant.now().isAfter(expiresAt));

    BadRequestsTest.assertProblem(api.claim(id), 410, null);
  }

  @Test
  void theEventStreamPushesTheSolvedStatusWithinASecondAndEnds() throws Exception {
    String id = Api.json(api.post("/api/solves", turnstile("rest-sse"))).get("id").stringValue();
    List<String> lines = new CopyOnWriteArrayList<>();
    List<Instant> solvedSeenAt = new CopyOnWriteArrayList<>();
    CompletableFuture<HttpResponse<Stream<String>>> stream =
        api.http()
            .sendAsync(
                api.request("/api/solves/" + id + "/events", api.auth())
                    .header("Accept", "text/event-stream")
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofLines());
    HttpResponse<Stream<String>> response = stream.get(10, TimeUnit.SECONDS);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
    CompletableFuture<Void> reading =
        CompletableFuture.runAsync(
            () ->
                response
                    .body()
                    .forEach(
                        line -> {
                          lines.add(line);
                          if (line.equals("id:SOLVED")) {
                            solvedSeenAt.add(Instant.now());
                          }
                        }));

    reading.get(40, TimeUnit.SECONDS); // the stream ends after the final status
    // the first status is the one the solve has when the stream opens: QUEUED, or SUBMITTED when
    // in.php was faster than the stream's set-up
    assertThat(lines).contains("event:status", "id:SOLVED");
    assertThat(lines.stream().filter(l -> l.startsWith("id:")).findFirst())
        .hasValueSatisfying(first -> assertThat(first).isIn("id:QUEUED", "id:SUBMITTED"));
    String solvedData = lines.get(lines.indexOf("id:SOLVED") + 1);
    JsonNode view = Api.JSON.readTree(solvedData.substring("data:".length()));
    assertThat(view.get("status").stringValue()).isEqualTo("SOLVED");
    assertThat(view.has("token")).isFalse();
    Instant solvedAt = Instant.parse(view.get("solvedAt").stringValue());
    assertThat(Duration.between(solvedAt, solvedSeenAt.get(0))).isLessThan(Duration.ofSeconds(1));
  }

  @Test
  void theWebhookIsSignedWithTheClientsKeyOverTheExactBodyNamesTheClientAndCarriesNoToken()
      throws Exception {
    String body =
        turnstile("rest-hook")
            .replace(
                "}",
                ",\"callbackUrl\":\"http://127.0.0.1:"
                    + receiver.getAddress().getPort()
                    + "/hook\"}");
    String id = Api.json(api.post("/api/solves", body)).get("id").stringValue();

    Delivery delivery = deliveries.poll(40, TimeUnit.SECONDS);
    assertThat(delivery).as("webhook delivered").isNotNull();
    // the client "default" (captchajobs.api.tokens) has no secret of its own: its key is derived
    // from the node secret and its name, as docs/security.md tells a receiver to compute it
    String key =
        hmacHex(TestApps.WEBHOOK_SECRET, "captchajobs-webhook-key-v1:default".getBytes(UTF_8));
    assertThat(delivery.signature()).isEqualTo("sha256=" + hmacHex(key, delivery.body()));
    assertThat(delivery.signature())
        .isNotEqualTo("sha256=" + hmacHex(TestApps.WEBHOOK_SECRET, delivery.body()));
    JsonNode outcome = Api.JSON.readTree(new String(delivery.body(), UTF_8));
    assertThat(outcome.get("id").stringValue()).isEqualTo(id);
    assertThat(outcome.get("status").stringValue()).isEqualTo("SOLVED");
    assertThat(outcome.get("businessKey").stringValue()).isEqualTo("rest-hook");
    assertThat(outcome.get("client").stringValue()).isEqualTo("default");
    assertThat(outcome.has("token")).isFalse();
    assertThat(outcome.get("timestamp").longValue())
        .isEqualTo(Long.parseLong(delivery.timestamp()));
    assertThat(api.claim(id).statusCode()).isEqualTo(200);
  }

  @Test
  void enqueueingAfterTheSolveIsStillIdempotentAndTheHealthEndpointIsUp() {
    Api management = new Api(TestApps.managementPort(app), TestApps.OPERATOR_TOKEN);
    HttpResponse<String> health =
        management.send(management.request("/actuator/health", null).GET().build());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(Api.json(health).get("status").stringValue()).isEqualTo("UP");
    HttpResponse<String> unauthorized =
        api.send(
            api.request("/api/solves", null).POST(HttpRequest.BodyPublishers.noBody()).build());
    assertThat(unauthorized.statusCode()).isEqualTo(401);
  }

  @Test
  void aReportAfterTheClaimIs202AndOneReportbadAtTheProviderAgain409OtherClient404BadVerdict400() {
    String id = Api.json(api.post("/api/solves", turnstile("rest-report"))).get("id").stringValue();
    String path = "/api/solves/" + id + "/report";
    awaitStatus(id, "SOLVED");

    HttpResponse<String> early = api.post(path, "{\"verdict\":\"BAD\"}");
    assertThat(early.statusCode()).isEqualTo(409);
    assertThat(Api.json(early).get("reason").stringValue()).isEqualTo("NOT_CLAIMED");
    assertThat(api.claim(id).statusCode()).isEqualTo(200);

    HttpResponse<String> missing = api.post(path, "{}");
    HttpResponse<String> unknown = api.post(path, "{\"verdict\":\"bad\"}");
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(Api.json(missing).get("field").stringValue()).isEqualTo("verdict");
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(Api.json(unknown).get("field").stringValue()).isEqualTo("verdict");
    assertThat(Api.json(api.get("/api/solves/" + id)).get("report").isNull()).isTrue();

    Api other = new Api(TestApps.port(app), OTHER_TOKEN);
    assertThat(other.post(path, "{\"verdict\":\"BAD\"}").statusCode()).isEqualTo(404);
    assertThat(
            api.post(
                    "/api/solves/" + java.util.UUID.randomUUID() + "/report",
                    "{\"verdict\":\"BAD\"}")
                .statusCode())
        .isEqualTo(404);

    HttpResponse<String> reported = api.post(path, "{\"verdict\":\"BAD\"}");
    assertThat(reported.statusCode()).isEqualTo(202);
    assertThat(Api.json(reported).get("report").get("verdict").stringValue()).isEqualTo("BAD");
    HttpResponse<String> again = api.post(path, "{\"verdict\":\"GOOD\"}");
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(Api.json(again).get("reason").stringValue()).isEqualTo("ALREADY_REPORTED");

    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                "SENT"
                    .equals(
                        Api.json(api.get("/api/solves/" + id))
                            .get("report")
                            .get("delivery")
                            .stringValue()));
    JsonNode report = Api.json(api.get("/api/solves/" + id)).get("report");
    assertThat(report.get("reportedAt").isNull()).isFalse();
    assertThat(report.get("deliveredAt").isNull()).isFalse();
    long task =
        sim.tasks().stream()
            .filter(t -> SolveProbe.pageUrl("rest-report").equals(t.pageUrl()))
            .mapToLong(com.captchajobs.simulator.TaskRecord::id)
            .findFirst()
            .orElseThrow();
    assertThat(sim.reports(task))
        .extracting(com.captchajobs.simulator.ReportRecord::action)
        .containsExactly("reportbad");
  }

  private static String hmacHex(String key, byte[] data) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key.getBytes(UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(data));
  }
}
