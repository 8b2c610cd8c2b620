package com.captchajobs.core.client;

import static com.captchajobs.core.client.Replies.KEY;
import static com.captchajobs.core.client.Replies.form;
import static com.captchajobs.core.client.Replies.json;
import static com.captchajobs.core.client.Replies.ok;
import static com.captchajobs.core.client.Replies.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import mockwebserver3.junit5.StartStop;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class CaptchaAiClientTest {

  @StartStop private final MockWebServer server = new MockWebServer();

  private final OkHttpClient base = new OkHttpClient();
  private CaptchaAiClient client;

  @BeforeEach
  void setUp() {
    client = clientFor(server.url("/").toString()).build();
  }

  @AfterEach
  void noConnectionIsLeaked() {
    assertThat(base.connectionPool().idleConnectionCount())
        .isEqualTo(base.connectionPool().connectionCount());
  }

  private CaptchaAiClient.Builder clientFor(String baseUrl) {
    return CaptchaAiClient.builder().apiKey(KEY).baseUrl(baseUrl).okHttpClient(base);
  }

  private RecordedRequest taken() throws InterruptedException {
    return server.takeRequest(5, TimeUnit.SECONDS);
  }

  // --- what is sent

  @Test
  void submitPostsAUrlEncodedFormWithTheKeyInTheBodyAndNeverInTheUrl() throws Exception {
    server.enqueue(json(1, "12345"));

    client.submit(TurnstileTask.of("0x4AAAAAAA", "https://example.com/login"));

    RecordedRequest request = taken();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getUrl().encodedPath()).isEqualTo("/in.php");
    assertThat(request.getUrl().query()).isNull();
    assertThat(request.getTarget()).doesNotContain(KEY);
    assertThat(request.getHeaders().get("Content-Type"))
        .startsWith("application/x-www-form-urlencoded");
    assertThat(request.getHeaders().get("User-Agent")).isEqualTo("captchajobs/0.1");
    assertThat(form(request))
        .containsExactly(
            entry("key", KEY),
            entry("json", "1"),
            entry("method", "turnstile"),
            entry("sitekey", "0x4AAAAAAA"),
            entry("pageurl", "https://example.com/login"));
  }

  @Test
  void pollSendsActionGetAndTheTaskIdToResPhp() throws Exception {
    server.enqueue(json(1, "token-1"));

    client.get("777");

    RecordedRequest request = taken();
    assertThat(request.getUrl().encodedPath()).isEqualTo("/res.php");
    assertThat(form(request))
        .containsExactly(
            entry("key", KEY), entry("json", "1"), entry("action", "get"), entry("id", "777"));
  }

  @Test
  void eachTaskTypeSendsItsOwnMethodFields() throws Exception {
    List<CaptchaTask> tasks =
        List.of(
            RecaptchaV2Task.of("6Lc-v2", "https://example.com/"),
            RecaptchaV3Task.of("6Lc-v3", "https://example.com/", "login", new BigDecimal("0.7")),
            new RecaptchaEnterpriseTask(
                "6Lc-ent", "https://example.com/", "v3", null, null, null, null, null, null),
            TurnstileTask.of("0x4A", "https://example.com/"),
            ImageTask.of(new byte[200]),
            CloudflareChallengeTask.of("https://example.com/", Proxy.http("1.2.3.4:8080")),
            GeeTestTask.of("gt-1", "challenge-1", "https://example.com/"),
            GeeTestV4Task.of("captcha-id-1", "https://example.com/"));
    for (CaptchaTask task : tasks) {
      server.enqueue(json(1, "1"));
      client.submit(task);
      assertThat(form(taken()))
          .as(task.type().name())
          .containsEntry("key", KEY)
          .containsEntry("json", "1")
          .containsAllEntriesOf(task.formFields());
    }
    // Spot checks of the in.php names, so a wrong mapping cannot hide behind formFields().
    assertThat(tasks.get(0).formFields())
        .containsEntry("method", "userrecaptcha")
        .containsEntry("googlekey", "6Lc-v2");
    assertThat(tasks.get(1).formFields())
        .containsEntry("version", "v3")
        .containsEntry("min_score", "0.7");
    assertThat(tasks.get(2).formFields())
        .containsEntry("enterprise", "1")
        .containsEntry("version", "v3");
    assertThat(tasks.get(4).formFields()).containsEntry("method", "base64");
    assertThat(tasks.get(5).formFields())
        .containsEntry("method", "cloudflare_challenge")
        .containsEntry("proxy", "1.2.3.4:8080")
        .containsEntry("proxytype", "HTTP");
    assertThat(tasks.get(7).formFields())
        .containsEntry("gt", "captcha-id-1")
        .containsEntry("version", "4");
  }

  @Test
  void aBaseUrlWithAPathKeepsItsPath() throws Exception {
    CaptchaAiClient prefixed = clientFor(server.url("/sim/").toString()).build();
    server.enqueue(json(1, "1"));

    prefixed.submit(TurnstileTask.of("0x4A", "https://example.com/"));

    assertThat(taken().getUrl().encodedPath()).isEqualTo("/sim/in.php");
    assertThat(prefixed.baseUrl()).endsWith("/sim");
  }

  @Test
  void aCustomUserAgentReplacesTheDefault() throws Exception {
    CaptchaAiClient custom = client.newBuilder().userAgent("tests/1").build();
    server.enqueue(json(1, "1"));

    custom.submit(TurnstileTask.of("0x4A", "https://example.com/"));

    assertThat(taken().getHeaders().values("User-Agent")).containsExactly("tests/1");
  }

  @Test
  void clientsFromNewBuilderShareTheConnectionPool() {
    CaptchaAiClient derived = client.newBuilder().readTimeout(Duration.ofSeconds(5)).build();
    server.enqueue(json(1, "1"));
    server.enqueue(json(1, "2"));

    client.submit(TurnstileTask.of("0x4A", "https://example.com/"));
    derived.submit(TurnstileTask.of("0x4A", "https://example.com/"));

    assertThat(base.connectionPool().connectionCount()).isEqualTo(1);
  }

  // --- answers, including the reply quirks listed in docs/captchaai-contract.md

  @Test
  void aTaskIdSentAsAJsonNumberComesBackAsAString() {
    server.enqueue(ok("{\"status\":1,\"request\":73021456789}"));

    assertThat(client.submit(TurnstileTask.of("0x4A", "https://example.com/")))
        .isEqualTo("73021456789");
  }

  @Test
  void aPlainTextAnswerIsAcceptedDespiteJsonOne() {
    server.enqueue(ok("OK|987"));
    server.enqueue(ok("OK|03AGdBq2"));

    assertThat(client.submit(TurnstileTask.of("0x4A", "https://example.com/"))).isEqualTo("987");
    assertThat(client.get("987")).isEqualTo(new PollResult.Solved("03AGdBq2", null));
  }

  @Test
  void capchaNotReadyIsAResultNotAnException() {
    server.enqueue(json(0, "CAPCHA_NOT_READY"));
    server.enqueue(ok("CAPCHA_NOT_READY"));

    assertThat(client.get("1")).isInstanceOf(PollResult.NotReady.class);
    assertThat(client.get("1")).isInstanceOf(PollResult.NotReady.class);
  }

  @Test
  void anAnswerWithResultAndUserAgentIsReadFromResult() {
    server.enqueue(
        ok(
            "{\"status\":1,\"request\":\"ignored\",\"result\":\"cf-clearance-value\","
                + "\"user_agent\":\"Mozilla/5.0 (X11)\"}"));

    assertThat(client.get("5"))
        .isEqualTo(new PollResult.Solved("cf-clearance-value", "Mozilla/5.0 (X11)"));
  }

  @Test
  void aGeeTestObjectAnswerBecomesItsJsonText() throws Exception {
    server.enqueue(
        ok(
            "{\"status\":1,\"request\":{\"geetest_challenge\":\"c1\",\"geetest_validate\":\"v1\","
                + "\"geetest_seccode\":\"s1|jordan\"}}"));

    PollResult.Solved solved = (PollResult.Solved) client.get("6");

    JsonNode answer = JsonMapper.builder().build().readTree(solved.token());
    assertThat(answer.get("geetest_challenge").textValue()).isEqualTo("c1");
    assertThat(answer.get("geetest_seccode").textValue()).isEqualTo("s1|jordan");
  }

  @Test
  void threadsInfoReadsAStringAndANumberFromABareObject() throws Exception {
    server.enqueue(ok("{\"threads\":\"600\",\"working_threads\":553}"));

    assertThat(client.threadsInfo()).isEqualTo(new ThreadsInfo(600, 553));
    assertThat(form(taken())).containsEntry("action", "threadsinfo").doesNotContainKey("id");
  }

  @Test
  void threadsInfoThrowsTheCodeInRequest() {
    server.enqueue(json(0, "ERROR_KEY_DOES_NOT_EXIST"));

    assertThat(apiError(client::threadsInfo).errorClass()).isEqualTo(ErrorClass.CREDENTIAL);
  }

  @Test
  void balanceIsADecimalWhetherStringNumberOrPlainText() {
    server.enqueue(json(1, "15.25"));
    server.enqueue(ok("{\"status\":1,\"request\":15}"));
    server.enqueue(ok("3.5"));

    assertThat(client.balance()).isEqualByComparingTo("15.25");
    assertThat(client.balance()).isEqualByComparingTo("15");
    assertThat(client.balance()).isEqualByComparingTo("3.5");
  }

  @Test
  void reportsSendTheirActionAndAcceptOkReportRecorded() throws Exception {
    server.enqueue(json(1, "OK_REPORT_RECORDED"));
    server.enqueue(ok("OK_REPORT_RECORDED"));

    client.reportBad("41");
    client.reportGood("42");

    assertThat(form(taken())).containsEntry("action", "reportbad").containsEntry("id", "41");
    assertThat(form(taken())).containsEntry("action", "reportgood").containsEntry("id", "42");
  }

  @Test
  void duplicateAndUnrecordedReportsAreIgnored() {
    server.enqueue(json(0, "ERROR_DUPLICATE_REPORT"));
    server.enqueue(ok("REPORT_NOT_RECORDED"));

    client.reportBad("41");
    client.reportGood("41");

    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void otherReportErrorsAreThrown() {
    server.enqueue(json(0, "ERROR_WRONG_USER_KEY"));

    assertThat(
            apiError(
                    () -> {
                      client.reportBad("41");
                      return null;
                    })
                .taskId())
        .isEqualTo("41");
  }

  // --- one error per class

  @Test
  void aWrongKeyIsAPermanentCredentialError() {
    server.enqueue(json(0, "ERROR_WRONG_USER_KEY"));

    CaptchaAiApiException e = apiError(this::submitTurnstile);

    assertThat(e.errorCode()).isEqualTo("ERROR_WRONG_USER_KEY");
    assertThat(e.errorClass()).isEqualTo(ErrorClass.CREDENTIAL);
    assertThat(e.permanent()).isTrue();
    assertThat(e.taskId()).isNull();
    assertThat(e.getMessage()).isEqualTo("ERROR_WRONG_USER_KEY (CREDENTIAL, permanent)");
  }

  @Test
  void anUnknownTaskIdIsAPermanentRequestErrorNamingTheTask() {
    server.enqueue(json(0, "ERROR_WRONG_CAPTCHA_ID"));

    CaptchaAiApiException e = apiError(() -> client.get("999"));

    assertThat(e.errorClass()).isEqualTo(ErrorClass.REQUEST);
    assertThat(e.taskId()).isEqualTo("999");
    assertThat(e.getMessage())
        .isEqualTo("ERROR_WRONG_CAPTCHA_ID (REQUEST, permanent) for task 999");
  }

  @Test
  void aTooSmallImageIsAPermanentImageError() {
    server.enqueue(json(0, "ERROR_ZERO_CAPTCHA_FILESIZE"));

    CaptchaAiApiException e = apiError(() -> client.submit(ImageTask.of(new byte[100])));

    assertThat(e.errorClass()).isEqualTo(ErrorClass.IMAGE);
    assertThat(e.permanent()).isTrue();
  }

  @Test
  void aFailedProxyIsAPermanentProxyError() {
    server.enqueue(json(0, "ERROR_PROXY_CONNECTION_FAILED"));

    CaptchaAiApiException e = apiError(() -> client.get("3"));

    assertThat(e.errorClass()).isEqualTo(ErrorClass.PROXY);
    assertThat(e.permanent()).isTrue();
  }

  @Test
  void anUnsolvableCaptchaIsPermanentForItsTask() {
    server.enqueue(json(0, "ERROR_CAPTCHA_UNSOLVABLE"));

    CaptchaAiApiException e = apiError(() -> client.get("4"));

    assertThat(e.errorClass()).isEqualTo(ErrorClass.UNSOLVABLE);
    assertThat(e.taskId()).isEqualTo("4");
  }

  @Test
  void noFreeThreadIsAThreadsErrorThatIsNotPermanent() {
    server.enqueue(json(0, "ERROR_ZERO_BALANCE"));
    server.enqueue(ok("ERROR_NO_SLOT_AVAILABLE"));

    assertThat(apiError(this::submitTurnstile).errorClass()).isEqualTo(ErrorClass.THREADS);
    CaptchaAiApiException e = apiError(this::submitTurnstile);
    assertThat(e.errorClass()).isEqualTo(ErrorClass.THREADS);
    assertThat(e.permanent()).isFalse();
  }

  @Test
  void rateLimitsAndServerErrorsAreTransient() {
    server.enqueue(json(0, "ERROR_TOO_MUCH_REQUESTS"));
    server.enqueue(ok("MAX_USER_TURN"));
    server.enqueue(ok("ERROR: 1001"));
    server.enqueue(json(0, "ERROR"));
    server.enqueue(json(0, "ERROR_INTERNAL_SERVER_ERROR"));

    for (String code :
        List.of(
            "ERROR_TOO_MUCH_REQUESTS",
            "MAX_USER_TURN",
            "ERROR: 1001",
            "ERROR",
            "ERROR_INTERNAL_SERVER_ERROR")) {
      CaptchaAiApiException e = apiError(this::submitTurnstile);
      assertThat(e.errorCode()).isEqualTo(code);
      assertThat(e.errorClass()).isEqualTo(ErrorClass.TRANSIENT);
      assertThat(e.permanent()).isFalse();
    }
  }

  @Test
  void anUnknownErrorCodeIsPermanent() {
    server.enqueue(json(0, "ERROR_SOMETHING_NEW"));

    CaptchaAiApiException e = apiError(this::submitTurnstile);

    assertThat(e.errorClass()).isEqualTo(ErrorClass.REQUEST);
    assertThat(e.permanent()).isTrue();
  }

  // --- transport failures

  @Test
  void anHtml502PageIsATransientTransportErrorSummarisedAsHtml() {
    server.enqueue(status(502, "<html><head><title>502 Bad Gateway</title></head></html>"));

    CaptchaAiTransportException e = transportError(() -> client.get("8"));

    assertThat(e.errorCode()).isEqualTo("HTTP_502");
    assertThat(e.errorClass()).isEqualTo(ErrorClass.TRANSIENT);
    assertThat(e.taskId()).isEqualTo("8");
    assertThat(e.getMessage()).isEqualTo("HTTP_502 (TRANSIENT) for task 8: HTML page");
  }

  @Test
  void aRedirectIsATransientErrorNamingTheLocationHostAndNothingReachesTheLocation()
      throws Exception {
    try (MockWebServer elsewhere = new MockWebServer()) {
      elsewhere.start();
      String location =
          elsewhere.url("/collect?form=" + KEY).toString().replace("localhost", "127.0.0.1");
      for (int code : new int[] {307, 308, 302}) {
        server.enqueue(
            new MockResponse.Builder().code(code).addHeader("Location", location).build());
      }

      CaptchaAiTransportException submit = transportError(this::submitTurnstile);
      CaptchaAiTransportException poll = transportError(() -> client.get("8"));
      CaptchaAiTransportException balance = transportError(() -> client.balance());

      assertThat(submit.errorCode()).isEqualTo("HTTP_307");
      assertThat(poll.errorCode()).isEqualTo("HTTP_308");
      assertThat(balance.errorCode()).isEqualTo("HTTP_302");
      for (CaptchaAiTransportException e : List.of(submit, poll, balance)) {
        assertThat(e.permanent()).isFalse();
        assertThat(e.getMessage())
            .contains("Location host: 127.0.0.1")
            .doesNotContain(KEY)
            .doesNotContain("collect");
      }
      assertThat(server.getRequestCount()).isEqualTo(3);
      assertThat(elsewhere.getRequestCount()).isZero();
    }
  }

  @Test
  void anyNon2xxStatusIsATransportErrorEvenWithACodeInTheBody() {
    server.enqueue(status(403, "ERROR_WRONG_USER_KEY"));

    assertThat(transportError(this::submitTurnstile).errorCode()).isEqualTo("HTTP_403");
  }

  @Test
  void anEmptyBodyIsTransient() {
    server.enqueue(ok(""));

    CaptchaAiTransportException e = transportError(this::submitTurnstile);

    assertThat(e.errorCode()).isEqualTo("EMPTY_BODY");
    assertThat(e.permanent()).isFalse();
  }

  @Test
  void garbageThatIsNeitherAnswerNorCodeIsTransient() {
    server.enqueue(ok("Service is temporarily unavailable, please try later"));
    server.enqueue(ok("<!DOCTYPE html><html><body>maintenance</body></html>"));
    server.enqueue(ok("{\"status\":1,"));
    server.enqueue(ok("{\"status\":0,\"request\":\"something went wrong\"}"));

    for (int i = 0; i < 4; i++) {
      CaptchaAiTransportException e = transportError(() -> client.get("9"));
      assertThat(e.errorCode()).isEqualTo("UNRECOGNISED_BODY");
      assertThat(e.errorClass()).isEqualTo(ErrorClass.TRANSIENT);
    }
  }

  @Test
  void aBareObjectWhereAnAnswerBelongsIsUnrecognised() {
    server.enqueue(ok("{\"threads\":\"5\",\"working_threads\":1}"));

    assertThat(transportError(this::submitTurnstile).errorCode()).isEqualTo("UNRECOGNISED_BODY");
  }

  @Test
  void aSlowReplyIsAReadTimeout() {
    CaptchaAiClient impatient = client.newBuilder().readTimeout(Duration.ofMillis(100)).build();
    server.enqueue(
        new MockResponse.Builder().body("OK|1").headersDelay(500, TimeUnit.MILLISECONDS).build());

    CaptchaAiTransportException e = transportError(() -> impatient.get("10"));

    assertThat(e.errorCode()).isEqualTo("TIMEOUT");
    assertThat(e.taskId()).isEqualTo("10");
  }

  @Test
  void aStalledCallHitsTheCallTimeout() {
    CaptchaAiClient impatient = client.newBuilder().callTimeout(Duration.ofMillis(200)).build();
    server.enqueue(new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE).build());

    assertThat(transportError(() -> impatient.get("11")).errorCode()).isEqualTo("TIMEOUT");
  }

  @Test
  void aServerThatNeverAcceptsIsAConnectTimeout() throws IOException {
    try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      // Fill the accept queue; the kernel then drops further SYNs, so connects hang.
      List<Socket> fillers = new ArrayList<>();
      try {
        assumeTrue(
            fillAcceptQueue(full, fillers), "this kernel refuses rather than drops extra SYNs");
        CaptchaAiClient impatient =
            clientFor("http://127.0.0.1:" + full.getLocalPort() + "/")
                .connectTimeout(Duration.ofMillis(200))
                .build();

        assertThat(transportError(() -> impatient.get("12")).errorCode()).isEqualTo("TIMEOUT");
      } finally {
        for (Socket filler : fillers) {
          filler.close();
        }
      }
    }
  }

  private static boolean fillAcceptQueue(ServerSocket server, List<Socket> fillers)
      throws IOException {
    for (int i = 0; i < 16; i++) {
      Socket socket = new Socket();
      fillers.add(socket);
      try {
        socket.connect(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 200);
      } catch (SocketTimeoutException full) {
        return true;
      } catch (IOException refused) {
        return false;
      }
    }
    return false;
  }

  @Test
  void aRefusedConnectionIsANetworkError() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    CaptchaAiClient unreachable = clientFor("http://127.0.0.1:" + closedPort + "/").build();

    CaptchaAiTransportException e = transportError(unreachable::threadsInfo);

    assertThat(e.errorCode()).isEqualTo("NETWORK");
    assertThat(e.getCause()).isInstanceOf(IOException.class);
  }

  @Test
  void aConnectionDroppedMidCallIsANetworkError() {
    // Two, because OkHttp may retry a dropped connection once on its own.
    server.enqueue(
        new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build());
    server.enqueue(
        new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build());

    assertThat(transportError(() -> client.get("13")).errorCode()).isEqualTo("NETWORK");
  }

  // --- builder

  @Test
  void buildingWithoutAKeyFailsNamingIt() {
    assertThatThrownBy(() -> CaptchaAiClient.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("apiKey is required");
    assertThatThrownBy(() -> CaptchaAiClient.builder().apiKey("  ").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("apiKey is required");
  }

  @Test
  void theDefaultsAreTheDocumentedConstants() {
    CaptchaAiClient defaults = CaptchaAiClient.builder().apiKey(KEY).build();

    assertThat(defaults.baseUrl()).isEqualTo(CaptchaAiClient.DEFAULT_BASE_URL);
    assertThat(CaptchaAiClient.DEFAULT_CONNECT_TIMEOUT).isEqualTo(Duration.ofSeconds(10));
    assertThat(CaptchaAiClient.DEFAULT_READ_TIMEOUT).isEqualTo(Duration.ofSeconds(30));
    assertThat(CaptchaAiClient.DEFAULT_CALL_TIMEOUT).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void theFingerprintIsTheStartOfTheKeysSha256AndToStringShowsOnlyIt() {
    CaptchaAiClient abc = CaptchaAiClient.builder().apiKey("abc").build();

    assertThat(abc.keyFingerprint()).isEqualTo("ba7816bf8f01cfea");
    assertThat(abc.toString()).contains("ba7816bf8f01cfea");
    assertThat(client.toString()).doesNotContain(KEY);
  }

  @Test
  void aBlankTaskIdIsRejectedBeforeAnyCall() {
    assertThatThrownBy(() -> client.get(" ")).isInstanceOf(IllegalArgumentException.class);
    assertThat(server.getRequestCount()).isZero();
  }

  // --- helpers

  private String submitTurnstile() {
    return client.submit(TurnstileTask.of("0x4A", "https://example.com/"));
  }

  private static CaptchaAiApiException apiError(Supplier<?> call) {
    return catchThrowableOfType(CaptchaAiApiException.class, call::get);
  }

  private static CaptchaAiTransportException transportError(Supplier<?> call) {
    return catchThrowableOfType(CaptchaAiTransportException.class, call::get);
  }

  private static java.util.Map.Entry<String, String> entry(String key, String value) {
    return java.util.Map.entry(key, value);
  }
}
