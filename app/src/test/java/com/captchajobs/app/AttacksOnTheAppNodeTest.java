package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The security suite of the app node, each test named after the attack it tries: the management
 * port and the API port against anonymous callers and API tokens, one client against another's
 * solves, a client over its limits, and hostile field values. The node only enqueues (no worker),
 * so solves stay unfinished unless a test moves them; the table of docs/security.md lists these.
 */
class AttacksOnTheAppNodeTest {

  static final String ALICE = "alice-token-0123456789abcdef";
  static final String BOB = "bob-token-0123456789abcdefgh";
  static final String SLOW = "slow-token-0123456789abcdefg";
  static final String CAPPED = "capped-token-0123456789abcdef";
  static final String CROWD = "crowd-token-0123456789abcdefg";
  static final String READER = "reader-token-0123456789abcdef";
  static final String HASTY = "hasty-token-0123456789abcdefg";
  static final String OPS = TestApps.OPERATOR_TOKEN;

  static ConfigurableApplicationContext app;
  static Api api;
  static Api management;
  static JdbcTemplate jdbc;

  @BeforeAll
  static void start() {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("spring.datasource.url", EmbeddedPostgresSupport.newDatabase());
    props.put("server.port", "0");
    props.put("server.address", "127.0.0.1");
    props.put("management.server.port", "0");
    props.put("management.server.address", "127.0.0.1");
    props.put("captchajobs.api.tokens", TestApps.API_TOKEN);
    props.put("captchajobs.api.clients.alice.token", ALICE);
    props.put("captchajobs.api.clients.bob.tokens", BOB);
    props.put("captchajobs.api.clients.bob.max-streams", "1");
    props.put("captchajobs.api.clients.bob.max-priority", "0");
    props.put("captchajobs.api.clients.slow.token", SLOW);
    props.put("captchajobs.api.clients.slow.rate", "0.01");
    props.put("captchajobs.api.clients.slow.burst", "2");
    props.put("captchajobs.api.clients.capped.token", CAPPED);
    props.put("captchajobs.api.clients.capped.max-unfinished", "2");
    props.put("captchajobs.api.clients.crowd.token", CROWD);
    props.put("captchajobs.api.clients.crowd.max-unfinished", "10");
    props.put("captchajobs.api.clients.crowd.rate", "1000");
    props.put("captchajobs.api.clients.crowd.burst", "100");
    props.put("captchajobs.api.clients.reader.token", READER);
    props.put("captchajobs.api.clients.reader.read-rate", "0.001");
    props.put("captchajobs.api.clients.reader.read-burst", "3");
    props.put("captchajobs.api.clients.hasty.token", HASTY);
    props.put("captchajobs.api.clients.hasty.rate", "0.001");
    props.put("captchajobs.api.clients.hasty.burst", "1");
    props.put("captchajobs.api.clients.ops.token", OPS);
    props.put("captchajobs.api.clients.ops.roles", "operator");
    app = AppApplication.builder().properties(props).run();
    api = new Api(TestApps.port(app), ALICE);
    management = new Api(TestApps.managementPort(app), OPS);
    jdbc = new JdbcTemplate(app.getBean(DataSource.class));
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  // --- the management surface ---

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
                    Arguments.of(path, "an API client", "Bearer " + ALICE, 403),
                    Arguments.of(path, "a wrong token", "Bearer not-a-token-0123456789", 401)));
  }

  @ParameterizedTest(name = "{1} reading {0} on the management port gets {3}")
  @MethodSource("managementEndpointsAndCallers")
  void nobodyButAnOperatorReadsAManagementEndpointOnTheManagementPort(
      String path, String who, String authorization, int status) {
    HttpResponse<String> r = management.send(management.request(path, authorization).build());

    assertThat(r.statusCode()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/problem+json");
    assertThat(r.body()).doesNotContain("captchajobs", "jvm_", "open\"");
  }

  static Stream<Arguments> everyCallerOnTheApiPort() {
    return MANAGEMENT_PATHS.stream()
        .flatMap(
            path ->
                Stream.of(
                    Arguments.of(path, "anonymous", null),
                    Arguments.of(path, "an API client", "Bearer " + ALICE),
                    Arguments.of(path, "the operator", "Bearer " + OPS)));
  }

  @ParameterizedTest(name = "{1} reading {0} on the API port gets no answer from Actuator")
  @MethodSource("everyCallerOnTheApiPort")
  void theApiPortServesNoManagementEndpointToAnyone(String path, String who, String auth) {
    HttpResponse<String> r = api.send(api.request(path, auth).build());

    assertThat(r.statusCode()).isIn(401, 403, 404);
    assertThat(r.body()).doesNotContain("jvm_", "\"open\"", "\"names\"");
  }

  @Test
  void anonymousCallerCannotCloseTheBreakerOnTheManagementPort() {
    HttpResponse<String> r =
        management.send(management.request("/actuator/breaker", null).DELETE().build());

    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(v -> v.startsWith("Bearer"));
  }

  @Test
  void anApiClientTokenCannotCloseTheBreakerOnTheManagementPort() {
    HttpResponse<String> r =
        management.send(
            management.request("/actuator/breaker", "Bearer " + ALICE).DELETE().build());

    assertThat(r.statusCode()).isEqualTo(403);
  }

  @Test
  void nobodyClosesTheBreakerThroughTheApiPort() {
    for (String auth : new String[] {null, "Bearer " + ALICE, "Bearer " + OPS}) {
      HttpResponse<String> r = api.send(api.request("/actuator/breaker", auth).DELETE().build());
      assertThat(r.statusCode()).as(String.valueOf(auth)).isIn(401, 403, 404);
    }
  }

  @Test
  void anOperatorTokenReadsMetricsAndPrometheusOnTheManagementPort() {
    HttpResponse<String> metrics = management.get("/actuator/metrics");
    HttpResponse<String> prometheus = management.get("/actuator/prometheus");

    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(prometheus.statusCode()).isEqualTo(200);
    assertThat(prometheus.body()).contains("jvm_");
  }

  @Test
  void anonymousProbesSeeStatusButNoHealthDetails() {
    HttpResponse<String> health =
        management.send(management.request("/actuator/health", null).build());
    HttpResponse<String> liveness =
        management.send(management.request("/actuator/health/liveness", null).build());
    HttpResponse<String> readiness =
        management.send(management.request("/actuator/health/readiness", null).build());
    HttpResponse<String> asClient =
        management.send(management.request("/actuator/health", "Bearer " + ALICE).build());
    HttpResponse<String> asOperator = management.get("/actuator/health");

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).contains("\"UP\"").doesNotContain("components", "details");
    assertThat(liveness.statusCode()).isEqualTo(200);
    assertThat(readiness.statusCode()).isEqualTo(200);
    assertThat(asClient.body()).doesNotContain("components");
    assertThat(asOperator.body()).contains("components");
  }

  @Test
  void anOperatorTokenCannotCallTheSolvesApi() {
    HttpResponse<String> r =
        new Api(TestApps.port(app), OPS).get("/api/solves/" + UUID.randomUUID());

    assertThat(r.statusCode()).isEqualTo(403);
  }

  // --- clients kept apart ---

  @Test
  void clientBCannotReadClientAsSolve() {
    String id = enqueue(api, "alice-read");

    HttpResponse<String> asBob = new Api(TestApps.port(app), BOB).get("/api/solves/" + id);

    assertThat(asBob.statusCode()).isEqualTo(404);
    assertThat(asBob.body()).doesNotContain("alice-read");
    assertThat(api.get("/api/solves/" + id).statusCode()).isEqualTo(200);
  }

  @Test
  void clientBCannotClaimClientAsSolvedToken() {
    String id = enqueue(api, "alice-claim");
    jdbc.update(
        "UPDATE captchajobs.solve SET status = 'SOLVED', token = 'tok-alice', solved_at = now(),"
            + " expires_at = now() + interval '1 hour' WHERE id = ?::uuid",
        id);

    HttpResponse<String> asBob = new Api(TestApps.port(app), BOB).claim(id);
    HttpResponse<String> asAlice = api.claim(id);

    assertThat(asBob.statusCode()).isEqualTo(404);
    assertThat(asBob.body()).doesNotContain("tok-alice");
    assertThat(asAlice.statusCode()).isEqualTo(200);
    assertThat(asAlice.body()).contains("tok-alice");
  }

  @Test
  void clientBCannotStreamClientAsSolveEvents() {
    String id = enqueue(api, "alice-stream");
    Api bob = new Api(TestApps.port(app), BOB);

    HttpResponse<String> r =
        bob.send(
            bob.request("/api/solves/" + id + "/events", bob.auth())
                .header("Accept", "text/event-stream")
                .build());

    assertThat(r.statusCode()).isEqualTo(404);
  }

  @Test
  void clientBUsingClientAsBusinessKeyGetsItsOwnSolveAndNoConflictRevealsAs() {
    String alices = enqueue(api, "shared-key");
    Api bob = new Api(TestApps.port(app), BOB);

    HttpResponse<String> bobSame = bob.post("/api/solves", RestFlowTest.turnstile("shared-key"));
    String bobs = Api.json(bobSame).get("id").stringValue();
    HttpResponse<String> bobOther =
        bob.post(
            "/api/solves",
            RestFlowTest.turnstile("shared-key").replace("\"type\"", "\"priority\":-1,\"type\""));

    assertThat(bobSame.statusCode()).isEqualTo(202);
    assertThat(bobs).isNotEqualTo(alices);
    assertThat(bobOther.statusCode()).isEqualTo(409);
    assertThat(bobOther.body()).contains(bobs).doesNotContain(alices);
    assertThat(
            jdbc.queryForList(
                "SELECT client FROM captchajobs.solve WHERE business_key = 'shared-key'"
                    + " ORDER BY client",
                String.class))
        .containsExactly("alice", "bob");
  }

  // --- limits ---

  @Test
  void aClientOverItsEnqueueRateIsAnswered429WithRetryAfterAndNothingIsStored() {
    Api slow = new Api(TestApps.port(app), SLOW);
    assertThat(slow.post("/api/solves", RestFlowTest.turnstile("slow-1")).statusCode())
        .isEqualTo(202);
    assertThat(slow.post("/api/solves", RestFlowTest.turnstile("slow-2")).statusCode())
        .isEqualTo(202);

    HttpResponse<String> third = slow.post("/api/solves", RestFlowTest.turnstile("slow-3"));

    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(third.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/problem+json");
    assertThat(third.headers().firstValue("Retry-After"))
        .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
    assertThat(rowsOf("slow")).isEqualTo(2);
  }

  @Test
  void aClientAtItsCapOfUnfinishedSolvesIsAnswered429WithRetryAfterAndNothingIsStored() {
    Api capped = new Api(TestApps.port(app), CAPPED);
    capped.post("/api/solves", RestFlowTest.turnstile("capped-1"));
    capped.post("/api/solves", RestFlowTest.turnstile("capped-2"));

    HttpResponse<String> third = capped.post("/api/solves", RestFlowTest.turnstile("capped-3"));

    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(third.headers().firstValue("Retry-After")).isPresent();
    assertThat(rowsOf("capped")).isEqualTo(2);
  }

  @Test
  void fortyParallelEnqueuesAgainstAMaxUnfinishedOfTenAcceptExactlyTen() throws Exception {
    Api crowd = new Api(TestApps.port(app), CROWD);
    List<CompletableFuture<HttpResponse<String>>> calls = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      calls.add(
          crowd
              .http()
              .sendAsync(
                  crowd
                      .request("/api/solves", crowd.auth())
                      .header("Content-Type", "application/json")
                      .POST(
                          HttpRequest.BodyPublishers.ofString(RestFlowTest.turnstile("crowd-" + i)))
                      .build(),
                  HttpResponse.BodyHandlers.ofString()));
    }
    Map<Integer, Integer> byStatus = new java.util.TreeMap<>();
    for (CompletableFuture<HttpResponse<String>> call : calls) {
      HttpResponse<String> r = call.get(60, TimeUnit.SECONDS);
      byStatus.merge(r.statusCode(), 1, Integer::sum);
      if (r.statusCode() == 429) {
        assertThat(r.headers().firstValue("Retry-After")).isPresent();
      }
    }

    assertThat(byStatus).isEqualTo(Map.of(202, 10, 429, 30));
    assertThat(rowsOf("crowd")).isEqualTo(10);
  }

  @Test
  void aClientOverItsReadRateIsAnswered429WithRetryAfterOnStatusClaimAndStream() {
    Api reader = new Api(TestApps.port(app), READER);
    String id = enqueue(reader, "reader-1");
    for (int i = 0; i < 3; i++) {
      assertThat(reader.get("/api/solves/" + id).statusCode()).isEqualTo(200);
    }

    List<HttpResponse<String>> over =
        List.of(
            reader.get("/api/solves/" + id),
            reader.claim(id),
            reader.send(
                reader
                    .request("/api/solves/" + id + "/events", reader.auth())
                    .header("Accept", "text/event-stream")
                    .build()));

    for (HttpResponse<String> r : over) {
      assertThat(r.statusCode()).as(r.request().uri().toString()).isEqualTo(429);
      assertThat(r.headers().firstValue("Content-Type").orElseThrow())
          .startsWith("application/problem+json");
      assertThat(r.headers().firstValue("Retry-After"))
          .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
    }
    // another client's reads are not affected
    assertThat(api.get("/api/solves/" + UUID.randomUUID()).statusCode()).isEqualTo(404);
  }

  @Test
  void aClientOverItsEnqueueRateIsRefusedBeforeItsBodyIsRead() {
    Api hasty = new Api(TestApps.port(app), HASTY);
    assertThat(hasty.post("/api/solves", RestFlowTest.turnstile("hasty-1")).statusCode())
        .isEqualTo(202);

    HttpResponse<String> notEvenJson = hasty.post("/api/solves", "{\"minScore\": 1e400, ");

    assertThat(notEvenJson.statusCode()).isEqualTo(429);
    assertThat(rowsOf("hasty")).isEqualTo(1);
  }

  static Stream<Arguments> numbersThatDoNotFit() {
    return Stream.of(
        Arguments.of("1e400", "minScore"),
        Arguments.of("-1e400", "minScore"),
        Arguments.of("1e-400", "minScore"),
        Arguments.of("1e99999", "minScore"),
        Arguments.of("1e9999999999", "minScore"));
  }

  @ParameterizedTest(name = "minScore {0} is refused with 400 naming {1}")
  @MethodSource("numbersThatDoNotFit")
  void aNumberThatDoesNotFitIsRefusedWith400NamingItsFieldAndNotLoggedAsAnError(
      String number, String field) {
    int before = rowsOf("alice");
    ch.qos.logback.classic.Logger root =
        (ch.qos.logback.classic.Logger)
            org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log =
        new ch.qos.logback.core.read.ListAppender<>();
    log.start();
    root.addAppender(log);
    HttpResponse<String> r;
    try {
      r =
          api.post(
              "/api/solves",
              "{\"businessKey\":\"big-number\",\"type\":\"RECAPTCHA_V3\",\"sitekey\":\""
                  + RestFlowTest.SITEKEY
                  + "\",\"pageUrl\":\"https://example.com/a\",\"action\":\"a\",\"minScore\":"
                  + number
                  + "}");
    } finally {
      root.detachAppender(log);
    }

    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(r.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/problem+json");
    assertThat(Api.json(r).get("field").stringValue()).isEqualTo(field);
    assertThat(rowsOf("alice")).isEqualTo(before);
    assertThat(log.list)
        .as("nothing logged at ERROR")
        .noneMatch(e -> e.getLevel() == ch.qos.logback.classic.Level.ERROR);
  }

  @Test
  void aPriorityOrPageThatDoesNotFitAnIntIsRefusedWith400NamingIt() {
    HttpResponse<String> priority =
        api.post(
            "/api/solves",
            RestFlowTest.turnstile("huge-prio").replace("\"type\"", "\"priority\":1e400,\"type\""));
    HttpResponse<String> page =
        new Api(TestApps.port(app), OPS).get("/api/admin/solves?page=99999999999");

    assertThat(priority.statusCode()).isEqualTo(400);
    assertThat(Api.json(priority).get("field").stringValue()).isEqualTo("priority");
    assertThat(page.statusCode()).isEqualTo(400);
    assertThat(page.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/problem+json");
    assertThat(Api.json(page).get("field").stringValue()).isEqualTo("page");
  }

  @Test
  void aBatchBelongsToItsClientSoAnotherClientsLabelAddsNothingToIt() {
    Api bob = new Api(TestApps.port(app), BOB);
    Api ops = new Api(TestApps.port(app), OPS);
    enqueue(api, "alice-batch-1", "shared-label");
    enqueue(api, "alice-batch-2", "shared-label");
    enqueue(bob, "bob-batch-1", "shared-label");

    HttpResponse<String> alices = ops.get("/api/admin/batches/shared-label?client=alice");
    HttpResponse<String> bobs = ops.get("/api/admin/batches/shared-label?client=bob");
    HttpResponse<String> unnamed = ops.get("/api/admin/batches/shared-label");

    assertThat(Api.json(alices).get("total").longValue()).isEqualTo(2);
    assertThat(Api.json(alices).get("client").stringValue()).isEqualTo("alice");
    assertThat(Api.json(bobs).get("total").longValue()).isEqualTo(1);
    assertThat(unnamed.statusCode()).isEqualTo(400);
    assertThat(Api.json(unnamed).get("field").stringValue()).isEqualTo("client");
    assertThat(
            Api.json(ops.get("/api/admin/solves?batch=shared-label&client=bob"))
                .at("/items/0/client")
                .stringValue())
        .isEqualTo("bob");
    // a client cannot read the batch views at all
    assertThat(bob.get("/api/admin/batches/shared-label?client=alice").statusCode()).isEqualTo(403);
  }

  @Test
  void aClientGivingAPriorityAboveItsCapOrOutsideTheRangeIsRefusedNamingPriority() {
    Api bob = new Api(TestApps.port(app), BOB);
    HttpResponse<String> overCap =
        bob.post(
            "/api/solves",
            RestFlowTest.turnstile("bob-prio").replace("\"type\"", "\"priority\":5,\"type\""));
    HttpResponse<String> outOfRange =
        api.post(
            "/api/solves",
            RestFlowTest.turnstile("alice-prio").replace("\"type\"", "\"priority\":11,\"type\""));

    assertThat(overCap.statusCode()).isEqualTo(400);
    assertThat(Api.json(overCap).get("field").stringValue()).isEqualTo("priority");
    assertThat(outOfRange.statusCode()).isEqualTo(400);
    assertThat(Api.json(outOfRange).get("field").stringValue()).isEqualTo("priority");
  }

  @Test
  void aClientOpeningMoreEventStreamsThanItsCapIsAnswered429() throws Exception {
    Api bob = new Api(TestApps.port(app), BOB);
    String id = enqueue(bob, "bob-streams");
    HttpRequest stream =
        bob.request("/api/solves/" + id + "/events", bob.auth())
            .header("Accept", "text/event-stream")
            .build();
    CompletableFuture<HttpResponse<java.io.InputStream>> first =
        bob.http().sendAsync(stream, HttpResponse.BodyHandlers.ofInputStream());
    HttpResponse<java.io.InputStream> open = first.get(20, TimeUnit.SECONDS);
    try {
      assertThat(open.statusCode()).isEqualTo(200);

      HttpResponse<String> second = bob.send(stream);

      assertThat(second.statusCode()).isEqualTo(429);
      assertThat(second.headers().firstValue("Retry-After")).isPresent();
    } finally {
      open.body().close();
    }
  }

  // --- hostile field values ---

  static Stream<Arguments> hostileFields() {
    String longKey = "k".repeat(201);
    return Stream.of(
        Arguments.of(
            "a NUL in businessKey",
            body("nul\\u0000key", "0x4AAAAAAADnPIDROrmt1Wwj", "https://example.com/a", null),
            "businessKey"),
        Arguments.of(
            "U+202E in businessKey",
            body("bidi\\u202Ekey", "0x4AAAAAAADnPIDROrmt1Wwj", "https://example.com/a", null),
            "businessKey"),
        Arguments.of(
            "a NUL in sitekey",
            body("nul-sitekey", "0x4AAAA\\u0000AAADnPIDROrmt1Wwj", "https://example.com/a", null),
            "sitekey"),
        Arguments.of(
            "U+202E in pageUrl",
            body("bidi-page", "0x4AAAAAAADnPIDROrmt1Wwj", "https://example.com/\\u202Ea", null),
            "pageUrl"),
        Arguments.of(
            "U+202E in callbackUrl",
            body(
                "bidi-callback",
                "0x4AAAAAAADnPIDROrmt1Wwj",
                "https://example.com/a",
                "https://hooks.example.com/\\u202Ex"),
            "callbackUrl"),
        Arguments.of(
            "an oversize businessKey",
            body(longKey, "0x4AAAAAAADnPIDROrmt1Wwj", "https://example.com/a", null),
            "businessKey"),
        Arguments.of(
            "an oversize sitekey",
            body("long-sitekey", "x".repeat(4097), "https://example.com/a", null),
            "sitekey"),
        Arguments.of(
            "an oversize callbackUrl",
            body(
                "long-callback",
                "0x4AAAAAAADnPIDROrmt1Wwj",
                "https://example.com/a",
                "https://hooks.example.com/" + "p".repeat(2100)),
            "callbackUrl"),
        Arguments.of(
            "U+202E in batch",
            OperatorViewsTest.withBatch(
                body("bidi-batch", "0x4AAAAAAADnPIDROrmt1Wwj", "https://example.com/a", null),
                "night\\u202E1"),
            "batch"),
        Arguments.of(
            "U+200B in batch",
            OperatorViewsTest.withBatch(
                body("zw-batch", "0x4AAAAAAADnPIDROrmt1Wwj", "https://example.com/a", null),
                "night\\u200B1"),
            "batch"));
  }

  @ParameterizedTest(name = "{0} is refused with 400 naming {2}")
  @MethodSource("hostileFields")
  void aHostileFieldValueIsRefusedWith400NamingTheFieldAndNothingIsStored(
      String attack, String json, String field) {
    int before = rowsOf("alice");

    HttpResponse<String> r = api.post("/api/solves", json);

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(Api.json(r).get("field").stringValue()).isEqualTo(field);
    assertThat(rowsOf("alice")).isEqualTo(before);
  }

  private static String body(String key, String sitekey, String pageUrl, String callback) {
    return "{\"businessKey\":\""
        + key
        + "\",\"type\":\"TURNSTILE\",\"sitekey\":\""
        + sitekey
        + "\",\"pageUrl\":\""
        + pageUrl
        + "\""
        + (callback == null ? "" : ",\"callbackUrl\":\"" + callback + "\"")
        + "}";
  }

  private static String enqueue(Api as, String businessKey, String batch) {
    HttpResponse<String> r =
        as.post(
            "/api/solves", OperatorViewsTest.withBatch(RestFlowTest.turnstile(businessKey), batch));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    return Api.json(r).get("id").stringValue();
  }

  private static String enqueue(Api as, String businessKey) {
    HttpResponse<String> r = as.post("/api/solves", RestFlowTest.turnstile(businessKey));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    return Api.json(r).get("id").stringValue();
  }

  private static int rowsOf(String client) {
    return jdbc.queryForObject(
        "SELECT count(*) FROM captchajobs.solve WHERE client = ?", Integer.class, client);
  }
}
