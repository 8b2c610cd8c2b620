package com.captchajobs.worker.security;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.webhook.WebhookDeliveries;
import com.captchajobs.core.internal.webhook.WebhookSigner;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two clients' receivers on real sockets: one client's receiver never answers, the other's answers
 * at once. The worker has the default four delivery threads, so a client's share is one ({@code (4
 * - 1) / 2}): no two clients hold every thread; the hung client holds only its share and the other
 * client's webhooks keep arriving. The worker is given a client's webhook secret and no token of
 * that client.
 */
class WebhooksOfOneClientCannotStarveAnotherTest {

  static final String KEY = "fairHookKeyFAIRhookKey0123456789";
  static final String SECRET = "fair-webhook-secret-0123456789";
  static final String ALICE_SECRET = "alice-only-webhook-secret-0123";

  record Delivery(String path, Instant at, byte[] body, String signature) {}

  static CaptchaAiSimulator sim;
  static WorkerNode node;
  static WebhookReceiver receiver;
  static final List<Instant> hanging = new CopyOnWriteArrayList<>();
  static final Map<String, Delivery> delivered = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() throws IOException {
    sim = CaptchaAiSimulator.builder().account(KEY, 10).timeScale(0.05).build().start();
    receiver =
        new WebhookReceiver()
            .hanging("/hang", exchange -> hanging.add(Instant.now()))
            .answering(
                "/ok",
                exchange -> {
                  Instant at = Instant.now();
                  byte[] body = exchange.getRequestBody().readAllBytes();
                  delivered.put(
                      exchange.getRequestURI().getPath(),
                      new Delivery(
                          exchange.getRequestURI().getPath(),
                          at,
                          body,
                          exchange.getRequestHeaders().getFirst(WebhookSigner.SIGNATURE_HEADER)));
                  exchange.sendResponseHeaders(204, -1);
                  exchange.close();
                })
            .start();
    node =
        WorkerNode.start(
            EmbeddedPostgresSupport.newDatabase(),
            sim.baseUrl(),
            KEY,
            Map.ofEntries(
                Map.entry("captchaai.threads", "10"),
                Map.entry("captchajobs.worker.worker-count", "10"),
                Map.entry("captchaai.first-poll-wait.TURNSTILE", "1s"),
                Map.entry("captchajobs.webhook.secret", SECRET),
                // a client of the app nodes: here only its webhook secret, no token
                Map.entry("captchajobs.api.clients.alice.webhook-secret", ALICE_SECRET),
                Map.entry(
                    "captchajobs.webhook.allowed-hosts", "http://127.0.0.1:" + receiver.port()),
                // a hanging receiver holds a thread this long per attempt
                Map.entry("captchajobs.webhook.timeout", "2m")));
  }

  @AfterAll
  static void stop() {
    receiver.release();
    node.close();
    receiver.stop();
    sim.close();
  }

  @Test
  void whileOneClientsReceiversHangEveryOtherClientsWebhooksArriveWithinSeconds() {
    for (int i = 0; i < 12; i++) {
      enqueue("hanger", "hang-" + i, "/hang");
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(hanging).as("the hung client's share is taken").hasSize(1));

    List<UUID> bobs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      bobs.add(enqueue("bob", "bob-" + i, "/ok/bob-" + i));
    }
    await()
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(() -> assertThat(delivered.keySet()).containsAll(paths("bob", bobs.size())));

    List<Duration> latencies = new ArrayList<>();
    for (int i = 0; i < bobs.size(); i++) {
      Instant solvedAt =
          node.bean(SolveRepository.class).find(bobs.get(i)).orElseThrow().solvedAt();
      latencies.add(Duration.between(solvedAt, delivered.get("/ok/bob-" + i).at()));
    }
    latencies.sort(null);
    Duration p95 = latencies.get((int) Math.ceil(latencies.size() * 0.95) - 1);
    System.out.printf(
        "[webhooks] while one client's receiver hangs: %d webhooks of another client, solved to"
            + " delivered p50 %d ms, p95 %d ms, max %d ms%n",
        latencies.size(),
        latencies.get(latencies.size() / 2).toMillis(),
        p95.toMillis(),
        latencies.get(latencies.size() - 1).toMillis());
    // generous: without shares they would wait for a hung thread, two minutes
    assertThat(latencies.get(latencies.size() - 1)).isLessThan(Duration.ofSeconds(20));
    assertThat(hanging).as("the hung client never got more than its share").hasSize(1);
    assertThat(node.bean(WebhookDeliveries.class).lanes().inFlight("hanger")).isEqualTo(1);
    assertThat(node.bean(WebhookDeliveries.class).lanes().parked("hanger"))
        .as("the rest wait parked, not cycling through JobRunr")
        .isEqualTo(11);
  }

  @Test
  void aWorkerGivenOnlyAClientsWebhookSecretSignsThatClientsWebhooksWithIt() {
    enqueue("alice", "alice-1", "/ok/alice-1");

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(delivered).containsKey("/ok/alice-1"));
    Delivery d = delivered.get("/ok/alice-1");
    assertThat(new WebhookSigner(ALICE_SECRET).verify(d.body(), d.signature())).isTrue();
    assertThat(new WebhookSigner(SECRET).verify(d.body(), d.signature())).isFalse();
    assertThat(new String(d.body(), UTF_8)).contains("\"client\":\"alice\"");
  }

  private static List<String> paths(String prefix, int n) {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      paths.add("/ok/" + prefix + "-" + i);
    }
    return paths;
  }

  private static UUID enqueue(String client, String key, String path) {
    return node.bean(SolveEnqueuer.class)
        .enqueue(
            client,
            key,
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "0x4AAAAAAADnPIDROrmt1Wwj", "pageUrl", SolveProbe.pageUrl(key)),
            0,
            "http://127.0.0.1:" + receiver.port() + path,
            0)
        .orElseThrow()
        .id();
  }
}
