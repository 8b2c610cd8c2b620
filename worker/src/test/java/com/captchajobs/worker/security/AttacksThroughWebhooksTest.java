package com.captchajobs.worker.security;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.egress.WebhookEgress;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.webhook.WebhookJob;
import com.captchajobs.core.internal.webhook.WebhookJobRequest;
import com.captchajobs.core.internal.webhook.WebhookSigner;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import okhttp3.Dns;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Webhooks as a way into the network around a worker: callback URLs aimed at loopback, cloud
 * metadata, private addresses, a name that resolves to loopback, plain http and a redirect to a
 * private address. A local receiver stands at every address that is reachable; it must get nothing.
 * The delivery job runs here directly on a solve stored by a real node.
 */
@Isolated
@ExtendWith(OutputCaptureExtension.class)
class AttacksThroughWebhooksTest {

  static final String KEY = "secHookKeySEChookKey012345678901";
  static final String SECRET = "node-webhook-secret-0123456789";
  static final String ALICE_SECRET = "alice-webhook-secret-0123456789";

  static CaptchaAiSimulator sim;
  static WorkerNode node;
  static HttpServer receiver;
  static HttpServer redirector;
  static final List<String> received = new CopyOnWriteArrayList<>();
  static final List<String> signatures = new CopyOnWriteArrayList<>();
  static final List<byte[]> bodies = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    // No captchajobs.webhook.secret on the node: its own deliveries stop at "no secret".
    node = WorkerNode.start(EmbeddedPostgresSupport.newDatabase(), sim.baseUrl(), KEY, Map.of());
    receiver = HttpServer.create(new InetSocketAddress("0.0.0.0", 0), 0);
    receiver.createContext(
        "/",
        exchange -> {
          received.add(exchange.getRequestURI().toString());
          signatures.add(exchange.getRequestHeaders().getFirst(WebhookSigner.SIGNATURE_HEADER));
          bodies.add(exchange.getRequestBody().readAllBytes());
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
    redirector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    redirector.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange
              .getResponseHeaders()
              .add("Location", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/inner");
          exchange.sendResponseHeaders(302, -1);
          exchange.close();
        });
    redirector.start();
  }

  @AfterAll
  static void stop() {
    receiver.stop(0);
    redirector.stop(0);
    node.close();
    sim.close();
  }

  @BeforeEach
  void clear() {
    received.clear();
    signatures.clear();
    bodies.clear();
  }

  static int port() {
    return receiver.getAddress().getPort();
  }

  static Stream<Arguments> forbiddenCallbacks() {
    return Stream.of(
        Arguments.of("loopback 127.0.0.1", "https://127.0.0.1:" + port() + "/hook"),
        Arguments.of("loopback [::1]", "https://[::1]:" + port() + "/hook"),
        Arguments.of("cloud metadata", "https://169.254.169.254/latest/meta-data/"),
        Arguments.of("a private 10/8 address", "https://10.0.0.1:" + port() + "/hook"),
        Arguments.of("a name resolving to loopback", "https://localhost:" + port() + "/hook"),
        Arguments.of("plain http where https is required", "http://localhost:" + port() + "/x"));
  }

  @ParameterizedTest(name = "a webhook to {0} is refused and nothing is sent")
  @MethodSource("forbiddenCallbacks")
  void aCallbackAimedInsideTheNetworkIsRefusedWithoutSendingAnything(String what, String url) {
    UUID id = solved("forbidden-" + UUID.randomUUID(), url, SolveRepository.JAVA_API_CLIENT);

    assertThatThrownBy(() -> job(Set.of()).run(new WebhookJobRequest(id, SolveStatus.SOLVED)))
        .hasMessageContaining("refused");
    assertThat(received).isEmpty();
  }

  @Test
  void aRedirectFromAnAllowedHostToAPrivateAddressIsNotFollowed() {
    String url = "http://127.0.0.1:" + redirector.getAddress().getPort() + "/hook";
    UUID id = solved("redirect-" + UUID.randomUUID(), url, SolveRepository.JAVA_API_CLIENT);

    assertThatThrownBy(
            () ->
                job(Set.of("http://127.0.0.1:" + redirector.getAddress().getPort()))
                    .run(new WebhookJobRequest(id, SolveStatus.SOLVED)))
        .hasMessageContaining("302");
    assertThat(received).isEmpty();
  }

  @Test
  void anAllowedHostGetsTheWebhookSignedWithTheOwningClientsSecret() {
    String url = "http://127.0.0.1:" + port() + "/alice";
    UUID id = solved("alice-" + UUID.randomUUID(), url, "alice");

    job(Set.of("http://127.0.0.1:" + port())).run(new WebhookJobRequest(id, SolveStatus.SOLVED));

    assertThat(received).containsExactly("/alice");
    assertThat(new WebhookSigner(ALICE_SECRET).verify(bodies.get(0), signatures.get(0))).isTrue();
    assertThat(new WebhookSigner(SECRET).verify(bodies.get(0), signatures.get(0))).isFalse();
    assertThat(new String(bodies.get(0), UTF_8)).contains(id.toString());
  }

  @Test
  void aClientPointingItsCallbackAtAnotherClientsReceiverCannotPassForThatClient() {
    // bob has no secret of its own; its solve names alice's receiver as callback
    String url = "http://127.0.0.1:" + port() + "/alice-receiver";
    UUID id = solved("bob-" + UUID.randomUUID(), url, "bob");

    job(Set.of("http://127.0.0.1:" + port())).run(new WebhookJobRequest(id, SolveStatus.SOLVED));

    assertThat(received).containsExactly("/alice-receiver");
    byte[] body = bodies.get(0);
    assertThat(new WebhookSigner(ALICE_SECRET).verify(body, signatures.get(0)))
        .as("alice's key does not verify bob's webhook")
        .isFalse();
    assertThat(new WebhookSigner(SECRET).verify(body, signatures.get(0)))
        .as("nor does the node secret")
        .isFalse();
    assertThat(
            new WebhookSigner(WebhookSigner.derivedKey(SECRET, "carol"))
                .verify(body, signatures.get(0)))
        .as("nor another client's derived key")
        .isFalse();
    assertThat(
            new WebhookSigner(WebhookSigner.derivedKey(SECRET, "bob"))
                .verify(body, signatures.get(0)))
        .as("bob's own derived key does")
        .isTrue();
    assertThat(new String(body, UTF_8)).contains("\"client\":\"bob\"");
  }

  @Test
  void anAllowedOriginOpensNeitherAnotherPortNorPlainHttpOnThatHost() {
    UUID id =
        solved(
            "pinned-" + UUID.randomUUID(),
            "http://127.0.0.1:" + port() + "/hook",
            SolveRepository.JAVA_API_CLIENT);
    WebhookJobRequest request = new WebhookJobRequest(id, SolveStatus.SOLVED);

    // the same host allowed on the redirector's port, and for https on the receiver's port
    for (String entry :
        List.of(
            "http://127.0.0.1:" + redirector.getAddress().getPort(),
            "127.0.0.1:" + port(),
            "127.0.0.1")) {
      assertThatThrownBy(() -> job(Set.of(entry)).run(request))
          .as(entry)
          .hasMessageContaining("refused");
    }
    assertThat(received).isEmpty();
  }

  @Test
  void aDeliveryWhoseSolveIsGoneIsDroppedWithOneLogLine(CapturedOutput output) {
    UUID gone = UUID.randomUUID();

    job(Set.of()).run(new WebhookJobRequest(gone, SolveStatus.SOLVED));

    assertThat(output.getAll().lines().filter(l -> l.contains(gone.toString())))
        .singleElement()
        .satisfies(line -> assertThat(line).contains("WARN", "dropped", "gone"));
    assertThat(received).isEmpty();
  }

  private static WebhookJob job(Set<String> allowedHosts) {
    return new WebhookJob(
        node.bean(SolveRepository.class),
        new OkHttpClient(),
        WebhookSigner.perClient(SECRET, Map.of("alice", ALICE_SECRET)),
        new WebhookEgress(allowedHosts, Dns.SYSTEM),
        false,
        Clock.systemUTC());
  }

  private static UUID solved(String key, String callbackUrl, String client) {
    UUID id =
        node.bean(SolveEnqueuer.class)
            .enqueue(
                client,
                key,
                CaptchaType.TURNSTILE,
                Map.of("sitekey", "0x4AAAAAAADnPIDROrmt1Wwj", "pageUrl", SolveProbe.pageUrl(key)),
                0,
                callbackUrl,
                0)
            .orElseThrow()
            .id();
    node.probe().awaitStatus(id, SolveStatus.SOLVED);
    return id;
  }
}
