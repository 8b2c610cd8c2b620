package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/** Every kind of bad request is refused with problem+json naming the field, and stores nothing. */
class BadRequestsTest {

  static final String KEY = "badrequestsKeyBADREQUESTSkey1234";
  static final String OK_FIELDS =
      "\"sitekey\":\"0x4AAAAAAADnPIDROrmt1Wwj\",\"pageUrl\":\"https://shop.example.test/bad\"";

  static CaptchaAiSimulator sim;
  static ConfigurableApplicationContext app;
  static Api api;
  static JdbcTemplate jdbc;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    // No worker: nothing here should ever reach one.
    app =
        TestApps.appWithWorker(
            EmbeddedPostgresSupport.newDatabase(),
            sim.baseUrl(),
            KEY,
            Map.of(
                "captchajobs.worker.enabled", "false", "captchajobs.api.max-body-size", "256KB"));
    api = new Api(TestApps.port(app), TestApps.API_TOKEN);
    jdbc = new JdbcTemplate(app.getBean(DataSource.class));
  }

  @AfterAll
  static void stop() {
    app.close();
    sim.close();
  }

  static Stream<Arguments> badBodies() {
    String big = "x".repeat(300 * 1024);
    return Stream.of(
        Arguments.of(
            "missing businessKey",
            "{\"type\":\"TURNSTILE\"," + OK_FIELDS + "}",
            400,
            "businessKey"),
        Arguments.of(
            "empty businessKey",
            "{\"businessKey\":\"\",\"type\":\"TURNSTILE\"," + OK_FIELDS + "}",
            400,
            "businessKey"),
        Arguments.of(
            "numeric businessKey",
            "{\"businessKey\":42,\"type\":\"TURNSTILE\"," + OK_FIELDS + "}",
            400,
            "businessKey"),
        Arguments.of("missing type", "{\"businessKey\":\"b\"," + OK_FIELDS + "}", 400, "type"),
        Arguments.of(
            "unknown type",
            "{\"businessKey\":\"b\",\"type\":\"HCAPTCHA\"," + OK_FIELDS + "}",
            400,
            "type"),
        Arguments.of(
            "numeric type", "{\"businessKey\":\"b\",\"type\":3," + OK_FIELDS + "}", 400, "type"),
        Arguments.of(
            "missing sitekey",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\",\"pageUrl\":\"https://a.test/\"}",
            400,
            "sitekey"),
        Arguments.of(
            "empty sitekey",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\",\"sitekey\":\" \",\"pageUrl\":\"https://a.test/\"}",
            400,
            "sitekey"),
        Arguments.of(
            "object sitekey",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\",\"sitekey\":{},\"pageUrl\":\"https://a.test/\"}",
            400,
            "sitekey"),
        Arguments.of(
            "missing pageUrl",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\",\"sitekey\":\"k\"}",
            400,
            "pageUrl"),
        Arguments.of(
            "relative pageUrl",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\",\"sitekey\":\"k\",\"pageUrl\":\"/login\"}",
            400,
            "pageUrl"),
        Arguments.of(
            "ftp pageUrl",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\",\"sitekey\":\"k\",\"pageUrl\":\"ftp://a.test/x\"}",
            400,
            "pageUrl"),
        Arguments.of(
            "array pageUrl",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\",\"sitekey\":\"k\",\"pageUrl\":[\"https://a.test/\"]}",
            400,
            "pageUrl"),
        Arguments.of(
            "text minScore",
            "{\"businessKey\":\"b\",\"type\":\"RECAPTCHA_V3\","
                + OK_FIELDS
                + ",\"action\":\"a\",\"minScore\":\"high\"}",
            400,
            "minScore"),
        Arguments.of(
            "text priority",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\","
                + OK_FIELDS
                + ",\"priority\":\"high\"}",
            400,
            "priority"),
        Arguments.of(
            "fractional priority",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\"," + OK_FIELDS + ",\"priority\":1.5}",
            400,
            "priority"),
        Arguments.of(
            "bad callbackUrl",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\","
                + OK_FIELDS
                + ",\"callbackUrl\":\"not a url\"}",
            400,
            "callbackUrl"),
        Arguments.of(
            "unknown field",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\"," + OK_FIELDS + ",\"color\":\"red\"}",
            400,
            "color"),
        Arguments.of(
            "image without body", "{\"businessKey\":\"b\",\"type\":\"IMAGE\"}", 400, "body"),
        Arguments.of("bad JSON", "{\"businessKey\":", 400, "body"),
        Arguments.of("JSON array", "[1,2]", 400, "body"),
        Arguments.of(
            "oversized body",
            "{\"businessKey\":\"b\",\"type\":\"TURNSTILE\","
                + OK_FIELDS
                + ",\"cookies\":\""
                + big
                + "\"}",
            413,
            "body"));
  }

  @ParameterizedTest(name = "{0} is answered {2} naming {3}")
  @MethodSource("badBodies")
  void aBadRequestIsRefusedNamingTheFieldAndStoresNothing(
      String name, String body, int status, String field) {
    HttpResponse<String> response = api.post("/api/solves", body);

    assertProblem(response, status, field);
    assertThat(rows()).isZero();
  }

  @ParameterizedTest(name = "authorization {0} is answered 401")
  @MethodSource("badAuthorizations")
  void aRequestWithoutAnAcceptedBearerTokenIsRefusedWith401AndStoresNothing(String authorization) {
    HttpResponse<String> response =
        api.send(
            api.request("/api/solves", authorization)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"businessKey\":\"auth\",\"type\":\"TURNSTILE\"," + OK_FIELDS + "}"))
                .build());

    assertProblem(response, 401, "Authorization");
    assertThat(response.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    assertThat(rows()).isZero();
  }

  static Stream<String> badAuthorizations() {
    return Stream.of(
        null, "Bearer wrong-token-0123456789", "Basic " + TestApps.API_TOKEN, "Bearer ");
  }

  @org.junit.jupiter.api.Test
  void theEventStreamAlsoRequiresTheBearerToken() {
    HttpResponse<String> response =
        api.send(
            api.request("/api/solves/00000000-0000-0000-0000-000000000000/events", null)
                .header("Accept", "text/event-stream")
                .GET()
                .build());

    assertProblem(response, 401, "Authorization");
  }

  @org.junit.jupiter.api.Test
  void aFormBodyIsRefusedWith415() {
    HttpResponse<String> response =
        api.send(
            api.request("/api/solves", api.auth())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("businessKey=b"))
                .build());

    assertProblem(response, 415, "Content-Type");
    assertThat(rows()).isZero();
  }

  @org.junit.jupiter.api.Test
  void unknownAndMalformedIdsAre404() {
    assertProblem(api.get("/api/solves/00000000-0000-0000-0000-000000000000"), 404, null);
    assertProblem(api.get("/api/solves/not-a-uuid"), 404, null);
    assertProblem(api.claim("00000000-0000-0000-0000-000000000000"), 404, null);
  }

  static void assertProblem(HttpResponse<String> response, int status, String field) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    JsonNode problem = Api.json(response);
    assertThat(problem.get("status").intValue()).isEqualTo(status);
    if (field != null) {
      assertThat(problem.get("field").stringValue()).isEqualTo(field);
      assertThat(problem.get("detail").stringValue()).contains(field);
    }
  }

  static int rows() {
    return jdbc.queryForObject("SELECT count(*) FROM captchajobs.solve", Integer.class);
  }
}
