package com.captchajobs.core.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.egress.WebhookEgress;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.Sql;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Dns;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The webhook deliveries' own JobRunr on real PostgreSQL, delivering to a receiver on a real
 * socket: an outcome triggered on every node is delivered once, from the deliveries' own tables; a
 * receiver that fails is retried with the webhook backoff until it answers 2xx; the settings are
 * refused naming the builder method; closing stops the deliveries' server.
 */
class WebhookDeliveriesTest {

  static final Schema SCHEMA = Schema.named("captchajobs");

  static final List<String> received = new CopyOnWriteArrayList<>();
  static final ConcurrentHashMap<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
  static HttpServer receiver;
  static HikariDataSource dataSource;
  static Sql sql;
  static SolveRepository repository;
  static WebhookDeliveries deliveries;

  @BeforeAll
  static void start() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
    receiver.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          exchange.getRequestBody().readAllBytes();
          received.add(path);
          AtomicInteger left = failuresLeft.get(path);
          boolean fail = left != null && left.getAndDecrement() > 0;
          exchange.sendResponseHeaders(fail ? 503 : 204, -1);
          exchange.close();
        });
    receiver.start();
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(6);
    SCHEMA.migrate(dataSource);
    repository = new SolveRepository(dataSource, SCHEMA);
    sql = new Sql(dataSource);
    deliveries = start("deliveries-node");
  }

  static WebhookDeliveries start(String node) {
    WebhookJob job =
        new WebhookJob(
            repository,
            WebhookJob.httpClient(Duration.ofSeconds(5)),
            client -> new WebhookSigner("deliveries-test-secret-0123456789"),
            new WebhookEgress(Set.of(origin()), Dns.SYSTEM),
            false,
            Clock.systemUTC());
    WebhookSettings settings =
        WebhookSettings.builder()
            .threads(2)
            .retries(3)
            .backoff(Duration.ofSeconds(1))
            .maxBackoff(Duration.ofSeconds(1))
            .timeout(Duration.ofSeconds(5))
            .build();
    return WebhookDeliveries.start(
        dataSource,
        SCHEMA,
        node,
        Duration.ofSeconds(5),
        Duration.ofSeconds(1),
        settings,
        job,
        repository,
        Clock.systemUTC());
  }

  @AfterAll
  static void stop() {
    deliveries.close();
    receiver.stop(0);
    dataSource.close();
  }

  static String origin() {
    return "http://127.0.0.1:" + receiver.getAddress().getPort();
  }

  static UUID solved(String path) {
    UUID id = UUID.randomUUID();
    sql.update(
        "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
            + " status, callback_url, token, submitted_at, solved_at, expires_at)"
            + " VALUES (?, 'alice', ?, 'TURNSTILE', '{}', repeat('0', 64), 'SOLVED', ?,"
            + " 'tok', now(), now(), now() + interval '5 minutes')",
        id,
        "key-" + id,
        origin() + path);
    return id;
  }

  static String state(UUID solveId) {
    return sql
        .queryForList(
            "SELECT state FROM captchajobs.cj_webhook_jobrunr_jobs WHERE id = ?",
            String.class,
            WebhookTrigger.jobId(solveId, SolveStatus.SOLVED).toString())
        .stream()
        .findFirst()
        .orElse("none");
  }

  @Test
  void anOutcomeTriggeredOnEveryNodeIsDeliveredOnceFromTheDeliveriesOwnTables() {
    UUID id = solved("/once");

    deliveries.trigger().onStatus(id, SolveStatus.SOLVED);
    deliveries.trigger().onStatus(id, SolveStatus.SOLVED); // a second node's listener
    deliveries.trigger().onStatus(id, SolveStatus.CLAIMED); // no outcome: no delivery

    await().atMost(Duration.ofSeconds(60)).until(() -> state(id).equals("SUCCEEDED"));
    assertThat(received.stream().filter("/once"::equals)).hasSize(1);
    assertThat(
            sql.queryForObject(
                "SELECT count(*) FROM captchajobs.cj_webhook_jobrunr_jobs WHERE jobasjson LIKE ?",
                Long.class,
                "%" + id + "%"))
        .isEqualTo(1L);
  }

  @Test
  void aReceiverThatFailsIsRetriedWithTheWebhookBackoffUntilItAnswers2xx() {
    failuresLeft.put("/flaky", new AtomicInteger(1));
    UUID id = solved("/flaky");

    deliveries.trigger().onStatus(id, SolveStatus.SOLVED);

    await().atMost(Duration.ofSeconds(90)).until(() -> state(id).equals("SUCCEEDED"));
    assertThat(received.stream().filter("/flaky"::equals)).hasSize(2);
    assertThat(
            sql.queryForList(
                "SELECT detail FROM captchajobs.solve_event WHERE solve_id = ? ORDER BY at",
                String.class,
                id))
        .containsExactly("SOLVED to 127.0.0.1: HTTP 503", "SOLVED to 127.0.0.1: HTTP 204");
  }

  @Test
  void closingStopsTheDeliveriesServerOfThatNode() {
    WebhookDeliveries second = start("second-node");
    assertThat(second.server().isRunning()).isTrue();

    second.close();

    assertThat(second.server().isRunning()).isFalse();
    assertThat(deliveries.server().isRunning()).isTrue();
  }
}
