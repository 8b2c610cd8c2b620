package com.captchajobs.core.internal.webhook;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.egress.WebhookEgress;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.Sql;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.Dns;
import org.jobrunr.JobRunrException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One delivery attempt of {@link WebhookJob} on real PostgreSQL and a receiver on a real socket,
 * with a fixed clock: what the POST carries and how it is signed, which answers make the
 * deliveries' JobRunr retry and which end the delivery at once (no secret, an address the egress
 * rules refuse), a redirect never followed, and each attempt written to the solve's events.
 */
class WebhookJobTest {

  static final Instant NOW = Instant.parse("2026-12-05T08:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  static final WebhookSigner SIGNER = new WebhookSigner("webhook-job-test-secret-0123456789");

  record Received(String path, String signature, String timestamp, byte[] body) {}

  static final List<Received> received = new CopyOnWriteArrayList<>();
  static HttpServer receiver;
  static HikariDataSource dataSource;
  static Sql sql;
  static SolveRepository repository;
  static WebhookEgress egress;

  @BeforeAll
  static void start() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    receiver.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          received.add(
              new Received(
                  path,
                  exchange.getRequestHeaders().getFirst(WebhookSigner.SIGNATURE_HEADER),
                  exchange.getRequestHeaders().getFirst(WebhookSigner.TIMESTAMP_HEADER),
                  exchange.getRequestBody().readAllBytes()));
          if (path.startsWith("/redirect")) {
            exchange.getResponseHeaders().add("Location", "/ok/after-redirect");
            exchange.sendResponseHeaders(302, -1);
          } else {
            exchange.sendResponseHeaders(path.startsWith("/fail") ? 500 : 204, -1);
          }
          exchange.close();
        });
    receiver.start();
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(3);
    Schema schema = Schema.named("captchajobs");
    schema.migrate(dataSource);
    repository = new SolveRepository(dataSource, schema);
    sql = new Sql(dataSource);
    egress = new WebhookEgress(Set.of(origin()), Dns.SYSTEM);
  }

  @AfterAll
  static void stop() {
    receiver.stop(0);
    dataSource.close();
  }

  @BeforeEach
  void nothingReceived() {
    received.clear();
  }

  static String origin() {
    return "http://127.0.0.1:" + receiver.getAddress().getPort();
  }

  static WebhookJob job(WebhookSigner signer, boolean includeToken) {
    return new WebhookJob(
        repository,
        WebhookJob.httpClient(Duration.ofSeconds(5)),
        client -> signer,
        egress,
        includeToken,
        CLOCK);
  }

  /** A SOLVED solve of client {@code alice} whose callback is {@code path} on the receiver. */
  static UUID solved(String path) {
    UUID id = UUID.randomUUID();
    sql.update(
        "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
            + " status, callback_url, token, submitted_at, solved_at, expires_at)"
            + " VALUES (?, 'alice', ?, 'TURNSTILE', '{}', repeat('0', 64), 'SOLVED', ?,"
            + " 'the-token', now(), now(), now() + interval '5 minutes')",
        id,
        "key-" + id,
        path == null ? null : origin() + path);
    return id;
  }

  static List<String> events(UUID id) {
    return sql.queryForList(
        "SELECT detail FROM captchajobs.solve_event WHERE solve_id = ? AND kind = 'webhook'"
            + " ORDER BY at",
        String.class,
        id);
  }

  @Test
  void theOutcomeIsPostedSignedWithTheClocksTimestampAndTheAttemptIsRecorded() throws Exception {
    UUID id = solved("/ok/1");

    job(SIGNER, false).run(new WebhookJobRequest(id, SolveStatus.SOLVED));

    assertThat(received).hasSize(1);
    Received r = received.get(0);
    assertThat(SIGNER.verify(r.body(), r.signature())).isTrue();
    assertThat(new WebhookSigner("another-secret-0123456789abcdef").verify(r.body(), r.signature()))
        .isFalse();
    assertThat(r.timestamp()).isEqualTo(String.valueOf(NOW.getEpochSecond()));
    JsonNode body = JsonMapper.builder().build().readTree(r.body());
    assertThat(body.get("id").asText()).isEqualTo(id.toString());
    assertThat(body.get("client").asText()).isEqualTo("alice");
    assertThat(body.get("status").asText()).isEqualTo("SOLVED");
    assertThat(body.get("timestamp").asLong()).isEqualTo(NOW.getEpochSecond());
    assertThat(body.has("token")).isFalse();
    assertThat(new String(r.body(), UTF_8)).doesNotContain("the-token");
    assertThat(events(id)).containsExactly("SOLVED to 127.0.0.1: HTTP 204");
  }

  @Test
  void theTokenTravelsOnlyWhenConfigured() throws Exception {
    UUID id = solved("/ok/token");

    job(SIGNER, true).run(new WebhookJobRequest(id, SolveStatus.SOLVED));

    JsonNode body = JsonMapper.builder().build().readTree(received.get(0).body());
    assertThat(body.get("token").asText()).isEqualTo("the-token");
  }

  @Test
  void anAnswerOtherThan2xxThrowsSoTheDeliveryIsRetried() {
    UUID id = solved("/fail/1");

    assertThatThrownBy(() -> job(SIGNER, false).run(new WebhookJobRequest(id, SolveStatus.SOLVED)))
        .isInstanceOf(WebhookDeliveryException.class)
        .hasMessageContaining("HTTP 500");
    assertThat(events(id)).containsExactly("SOLVED to 127.0.0.1: HTTP 500");
  }

  @Test
  void aRedirectIsNotFollowedAndCountsAsAFailedAttempt() {
    UUID id = solved("/redirect/1");

    assertThatThrownBy(() -> job(SIGNER, false).run(new WebhookJobRequest(id, SolveStatus.SOLVED)))
        .isInstanceOf(WebhookDeliveryException.class)
        .hasMessageContaining("HTTP 302");
    assertThat(received).extracting(Received::path).containsExactly("/redirect/1");
  }

  @Test
  void withoutASecretNothingIsSentAndTheDeliveryIsNotRetried() {
    UUID id = solved("/ok/unsigned");

    assertThatThrownBy(() -> job(null, false).run(new WebhookJobRequest(id, SolveStatus.SOLVED)))
        .isInstanceOfSatisfying(
            JobRunrException.class, e -> assertThat(e.isProblematicAndDoNotRetry()).isTrue())
        .hasMessageContaining("captchajobs.webhook.secret");
    assertThat(received).isEmpty();
  }

  @Test
  void anAddressTheEgressRulesRefuseIsRecordedAndNotRetried() {
    UUID id = solved("/ok/refused");
    WebhookJob strict =
        new WebhookJob(
            repository,
            WebhookJob.httpClient(Duration.ofSeconds(5)),
            client -> SIGNER,
            new WebhookEgress(Set.of(), Dns.SYSTEM),
            false,
            CLOCK);

    assertThatThrownBy(() -> strict.run(new WebhookJobRequest(id, SolveStatus.SOLVED)))
        .isInstanceOfSatisfying(
            JobRunrException.class, e -> assertThat(e.isProblematicAndDoNotRetry()).isTrue());
    assertThat(received).isEmpty();
    assertThat(events(id)).containsExactly("SOLVED: refused by egress rules");
  }

  @Test
  void aSolveThatIsGoneOrHasNoCallbackSendsNothing() {
    job(SIGNER, false).run(new WebhookJobRequest(UUID.randomUUID(), SolveStatus.SOLVED));
    job(SIGNER, false).run(new WebhookJobRequest(solved(null), SolveStatus.SOLVED));

    assertThat(received).isEmpty();
  }
}
