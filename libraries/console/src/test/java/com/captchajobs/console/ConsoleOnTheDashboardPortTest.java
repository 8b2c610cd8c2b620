package com.captchajobs.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.console.server.DashboardServer;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.testing.CapturedOutput;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.OutputCapture;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.jobrunr.jobs.mappers.JobMapper;
import org.jobrunr.storage.InMemoryStorageProvider;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The console and JobRunr's pages on the dashboard's own server, on a real socket, over a real
 * PostgreSQL: what every answer forbids, what no GET may change, and what the console does with
 * input it cannot use.
 */
@ExtendWith(OutputCapture.class)
class ConsoleOnTheDashboardPortTest {

  static final String USER = "ops";
  static final String PASSWORD = "console-port-password-0123";
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static HikariDataSource db;
  static DashboardServer server;
  static OperatorQueries operations;
  static String base;

  @BeforeAll
  static void start() {
    db = new HikariDataSource();
    db.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    db.setMaximumPoolSize(4);
    Schema schema = Schema.named("captchajobs");
    schema.migrate(db);
    // a statement timeout of 1 s instead of 5, so that the test of it is quick
    ConsoleQueries queries = new ConsoleQueries(db, schema, Duration.ofSeconds(1));
    Sampler sampler = new Sampler(queries);
    operations = new OperatorQueries(db, schema);
    JacksonJsonMapper json = new JacksonJsonMapper();
    InMemoryStorageProvider storage = new InMemoryStorageProvider();
    storage.setJobMapper(new JobMapper(json));
    server =
        DashboardServer.start(
            storage,
            json,
            null,
            0,
            USER,
            PASSWORD,
            com.captchajobs.console.server.DashboardLimits.DEFAULT,
            List.of(
                new ConsoleHandler(
                    queries,
                    operations,
                    null,
                    sampler,
                    new ConsoleProviders(operations, db, schema))));
    base = "http://127.0.0.1:" + server.address().getPort();
  }

  @AfterAll
  static void stop() {
    server.close();
    db.close();
  }

  @Test
  void everyAnswerOnTheDashboardPortForbidsFraming() throws Exception {
    List<HttpResponse<String>> answers =
        List.of(
            get("/", true),
            get("/dashboard/", true),
            get("/dashboard/overview", true),
            get("/api/jobs?state=FAILED", true),
            get("/api/version", true),
            get("/console/", true),
            get("/console/api/overview", true),
            get("/console/static/console.js", true),
            get("/api/jobs", false), // the login challenge
            send("POST", "/api/jobs/x/requeue", "http://evil.example", null, "")); // cross-site

    assertThat(answers).extracting(HttpResponse::statusCode).contains(200, 302, 401, 403);
    for (HttpResponse<String> answer : answers) {
      assertThat(answer.headers().firstValue("X-Frame-Options"))
          .as(answer.uri() + " " + answer.statusCode())
          .contains("DENY");
      // a browser enforces every policy it is sent: one that forbids framing is enough
      assertThat(answer.headers().allValues("Content-Security-Policy"))
          .as(answer.uri() + " " + answer.statusCode())
          .anySatisfy(csp -> assertThat(csp).contains("frame-ancestors 'none'"));
    }
  }

  @Test
  void noGetStampsTheWatchOnlyAPostFromTheConsolesOwnPageDoes() throws Exception {
    clearWatch();
    assertThat(get("/console/", true).statusCode()).isEqualTo(200);
    assertThat(get("/console/api/overview", true).statusCode()).isEqualTo(200);
    assertThat(get("/console/api/watch", true).statusCode()).isEqualTo(404);
    assertThat(watchedUntil()).as("no GET stamps the watch").isNull();

    assertThat(send("POST", "/console/api/watch", "http://evil.example", null, "").statusCode())
        .isEqualTo(403);
    assertThat(send("POST", "/console/api/watch", null, null, "").statusCode())
        .as("no sign of the console's own page")
        .isEqualTo(403);
    assertThat(send("POST", "/console/api/watch", null, "cross-site", "").statusCode())
        .isEqualTo(403);
    assertThat(watchedUntil()).isNull();

    assertThat(send("POST", "/console/api/watch", base, "same-origin", "").statusCode())
        .isEqualTo(204);
    assertThat(watchedUntil()).isAfter(Instant.now());
  }

  @Test
  void aCursorThatIsNotOneOfTheConsolesIsAnswered400() throws Exception {
    for (long micros : new long[] {Long.MAX_VALUE, Long.MIN_VALUE}) {
      String extreme =
          Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString(
                  (micros + "." + java.util.UUID.randomUUID()).getBytes(StandardCharsets.US_ASCII));
      assertThat(get("/console/solves?after=" + extreme, true).statusCode()).isEqualTo(400);
      assertThat(get("/console/dead?code=ERROR_X&after=" + extreme, true).statusCode())
          .isEqualTo(400);
    }
    assertThat(get("/console/solves?after=not-a-cursor", true).statusCode()).isEqualTo(400);
    assertThat(get("/console/solves", true).statusCode()).isEqualTo(200);
  }

  @Test
  void aConsoleQueryPastItsStatementTimeoutIsAnswered503AndTheNextOneServes(CapturedOutput output)
      throws Exception {
    try (Connection holder = db.getConnection()) {
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement()) {
        s.execute("LOCK TABLE captchajobs.solve IN ACCESS EXCLUSIVE MODE");
      }
      HttpResponse<String> slow = get("/console/solves?type=TURNSTILE", true);
      assertThat(slow.statusCode()).isEqualTo(503);
      assertThat(slow.body()).contains("did not answer within");
      holder.rollback();
    }
    assertThat(get("/console/solves?type=TURNSTILE", true).statusCode()).isEqualTo(200);
    assertThat(output.getAll()).contains("/console/solves took longer than");
  }

  @Test
  void formValuesWithLineBreaksForgeNoLogLine(CapturedOutput output) throws Exception {
    String code = "ERROR_X\r\n12:00:00.000 INFO  [main] FORGED-BY-CODE - operator said so";
    String fingerprint = "fp\nFORGED-BY-FINGERPRINT";
    assertThat(
            send(
                    "POST",
                    "/console/dead/requeue-code",
                    null,
                    null,
                    "confirm=yes&code=" + java.net.URLEncoder.encode(code, StandardCharsets.UTF_8))
                .statusCode())
        .isEqualTo(200);
    assertThat(
            send(
                    "POST",
                    "/console/breakers/close",
                    null,
                    null,
                    "fingerprint="
                        + java.net.URLEncoder.encode(fingerprint, StandardCharsets.UTF_8))
                .statusCode())
        .isEqualTo(409);

    assertThat(output.getAll())
        .contains("of code ERROR_X\\u000d\\u000a12:00:00.000 INFO")
        .contains("breaker of key fp\\u000aFORGED-BY-FINGERPRINT");
    assertThat(output.getAll().lines())
        .noneMatch(line -> line.contains("FORGED") && !line.contains("Console:"));
  }

  static HttpResponse<String> get(String path, boolean authenticated) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path)).GET();
    if (authenticated) {
      r.header("Authorization", basic());
    }
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> send(
      String method, String path, String origin, String fetchSite, String form) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Authorization", basic())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .method(method, HttpRequest.BodyPublishers.ofString(form));
    if (origin != null) {
      r.header("Origin", origin);
    }
    if (fetchSite != null) {
      r.header("Sec-Fetch-Site", fetchSite);
    }
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  static String basic() {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
  }

  static void clearWatch() throws Exception {
    try (Connection c = db.getConnection();
        Statement s = c.createStatement()) {
      s.execute("UPDATE captchajobs.gate SET watched_until = NULL WHERE id = 1");
    }
  }

  static Instant watchedUntil() throws Exception {
    try (Connection c = db.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT watched_until FROM captchajobs.gate WHERE id = 1")) {
      rs.next();
      return rs.getTimestamp(1) == null ? null : rs.getTimestamp(1).toInstant();
    }
  }
}
