package com.captchajobs.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Tag("unit")
class CaptchaTaskTest {

  private static final String PAGE = "https://example.com/login";
  private static final String IMAGE = Base64.getEncoder().encodeToString(new byte[200]);

  /** One task per type with every optional field set. */
  static Stream<CaptchaTask> fullTasks() {
    Proxy proxy = new Proxy("user:secret@10.0.0.1:3128", Proxy.Type.SOCKS5);
    return Stream.of(
        new RecaptchaV2Task("6Lc", PAGE, true, "ds", "UA/1", "a=b; c=d", proxy),
        new RecaptchaV3Task("6Lc", PAGE, "login", new BigDecimal("0.3"), "UA/1", "a=b", proxy),
        new RecaptchaEnterpriseTask(
            "6Lc", PAGE, "v3", "ds", "verify", new BigDecimal("0.9"), "UA/1", "a=b", proxy),
        new TurnstileTask("0x4A", PAGE, "login", "cd", "UA/1", "a=b", proxy),
        new ImageTask(IMAGE, 1, 4, 6, true, false, true, "en", "type the red letters"),
        new CloudflareChallengeTask(PAGE, Proxy.http("u:p@10.0.0.2:8080"), "UA/1", "a=b"),
        new GeeTestTask("gt", "ch", PAGE, "api-na.geetest.com", "UA/1", "a=b", proxy),
        new GeeTestV4Task("cid", PAGE, "UA/1", "a=b", proxy));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fullTasks")
  void everyTaskRoundTripsThroughItsSortedParams(CaptchaTask task) {
    Map<String, String> params = task.params();

    assertThat(CaptchaTask.of(task.type(), params)).isEqualTo(task);
    assertThat(List.copyOf(params.keySet())).isSorted();
    assertThat(params.values()).doesNotContainNull();
  }

  @Test
  void everyTypeHasARecord() {
    assertThat(fullTasks().map(CaptchaTask::type)).containsExactlyInAnyOrder(CaptchaType.values());
  }

  @Test
  void paramsHoldOnlyTheFieldsThatAreSet() {
    assertThat(TurnstileTask.of("0x4A", PAGE).params())
        .containsExactly(Map.entry("pageUrl", PAGE), Map.entry("sitekey", "0x4A"));
  }

  @Test
  void recaptchaV2MapsToUserrecaptchaWithGooglekeyAndDashedDataS() {
    assertThat(fullTasks().findFirst().orElseThrow().formFields())
        .containsExactly(
            Map.entry("method", "userrecaptcha"),
            Map.entry("googlekey", "6Lc"),
            Map.entry("pageurl", PAGE),
            Map.entry("invisible", "1"),
            Map.entry("data-s", "ds"),
            Map.entry("userAgent", "UA/1"),
            Map.entry("cookies", "a=b; c=d"),
            Map.entry("proxy", "user:secret@10.0.0.1:3128"),
            Map.entry("proxytype", "SOCKS5"));
  }

  @Test
  void aVisibleRecaptchaSendsNoInvisibleFlag() {
    assertThat(new RecaptchaV2Task("6Lc", PAGE, false, null, null, null, null).formFields())
        .doesNotContainKey("invisible");
  }

  @Test
  void recaptchaV3SendsVersionActionAndMinScore() {
    assertThat(RecaptchaV3Task.of("6Lc", PAGE, "login", new BigDecimal("0.3")).formFields())
        .containsExactly(
            Map.entry("method", "userrecaptcha"),
            Map.entry("version", "v3"),
            Map.entry("googlekey", "6Lc"),
            Map.entry("pageurl", PAGE),
            Map.entry("action", "login"),
            Map.entry("min_score", "0.3"));
  }

  @Test
  void enterpriseDefaultsToV2AndSendsVersionOnlyForV3() {
    RecaptchaEnterpriseTask v2 = RecaptchaEnterpriseTask.of("6Lc", PAGE);

    assertThat(v2.version()).isEqualTo("v2");
    assertThat(v2.formFields()).containsEntry("enterprise", "1").doesNotContainKey("version");
    assertThat(
            CaptchaTask.of(
                    CaptchaType.RECAPTCHA_ENTERPRISE,
                    Map.of("sitekey", "6Lc", "pageUrl", PAGE, "version", "v3"))
                .formFields())
        .containsEntry("version", "v3");
  }

  @Test
  void turnstileSendsCdataAsData() {
    assertThat(new TurnstileTask("0x4A", PAGE, "login", "cd", null, null, null).formFields())
        .containsExactly(
            Map.entry("method", "turnstile"),
            Map.entry("sitekey", "0x4A"),
            Map.entry("pageurl", PAGE),
            Map.entry("action", "login"),
            Map.entry("data", "cd"));
  }

  @Test
  void imageUsesTheInPhpOptionNamesAndFlags() {
    CaptchaTask image =
        fullTasks().filter(t -> t.type() == CaptchaType.IMAGE).findFirst().orElseThrow();

    assertThat(image.pageUrl()).isNull();
    assertThat(image.formFields())
        .containsExactly(
            Map.entry("method", "base64"),
            Map.entry("body", IMAGE),
            Map.entry("numeric", "1"),
            Map.entry("min_len", "4"),
            Map.entry("max_len", "6"),
            Map.entry("phrase", "1"),
            Map.entry("regsense", "0"),
            Map.entry("calc", "1"),
            Map.entry("lang", "en"),
            Map.entry("textinstructions", "type the red letters"));
    assertThat(image.toString()).doesNotContain(IMAGE).contains("body=(" + IMAGE.length());
  }

  @Test
  void geeTestSendsApiServerAndV4SendsTheCaptchaIdAsGt() {
    assertThat(GeeTestTask.of("gt", "ch", PAGE).formFields())
        .containsExactly(
            Map.entry("method", "geetest"),
            Map.entry("gt", "gt"),
            Map.entry("challenge", "ch"),
            Map.entry("pageurl", PAGE));
    assertThat(GeeTestV4Task.of("cid", PAGE).formFields())
        .containsExactly(
            Map.entry("method", "geetest"),
            Map.entry("version", "4"),
            Map.entry("gt", "cid"),
            Map.entry("pageurl", PAGE));
  }

  @Test
  void aProxyWithoutTypeIsHttpAndItsPasswordNeverShowsInToString() {
    CaptchaTask task =
        CaptchaTask.of(
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "0x4A", "pageUrl", PAGE, "proxy", "bob:hunter2@10.0.0.1:3128"));

    assertThat(task.params()).containsEntry("proxyType", "HTTP");
    assertThat(task.formFields()).containsEntry("proxytype", "HTTP");
    assertThat(task.toString()).doesNotContain("hunter2").contains("bob:***@10.0.0.1:3128");
  }

  static Stream<Arguments> invalidTasks() {
    String tooLong = "x".repeat(4097);
    return Stream.of(
        invalid(CaptchaType.RECAPTCHA_V2, Map.of("pageUrl", PAGE), "sitekey is required"),
        invalid(
            CaptchaType.RECAPTCHA_V2,
            Map.of("sitekey", " ", "pageUrl", PAGE),
            "sitekey must not be blank"),
        invalid(
            CaptchaType.RECAPTCHA_V2,
            Map.of("sitekey", "k", "pageUrl", "ftp://example.com/"),
            "pageUrl must be an absolute http(s) URL"),
        invalid(
            CaptchaType.RECAPTCHA_V2,
            Map.of("sitekey", "k", "pageUrl", "/login"),
            "pageUrl must be an absolute http(s) URL"),
        invalid(
            CaptchaType.RECAPTCHA_V2,
            Map.of("sitekey", "k", "pageUrl", PAGE, "invisible", "1"),
            "invisible must be true or false"),
        invalid(
            CaptchaType.RECAPTCHA_V2,
            Map.of("sitekey", "k", "pageUrl", PAGE, "dataS", tooLong),
            "dataS must be at most 4096 characters"),
        invalid(
            CaptchaType.RECAPTCHA_V2,
            Map.of("sitekey", "k", "pageUrl", PAGE, "googlekey", "k"),
            "googlekey is not a field of RECAPTCHA_V2"),
        invalid(
            CaptchaType.RECAPTCHA_V3,
            Map.of("sitekey", "k", "pageUrl", PAGE, "minScore", "0.95"),
            "minScore must be between 0.1 and 0.9"),
        invalid(
            CaptchaType.RECAPTCHA_V3,
            Map.of("sitekey", "k", "pageUrl", PAGE, "minScore", "high"),
            "minScore must be a decimal number"),
        invalid(
            CaptchaType.RECAPTCHA_ENTERPRISE,
            Map.of("sitekey", "k", "pageUrl", PAGE, "version", "v4"),
            "version must be v2 or v3"),
        invalid(
            CaptchaType.RECAPTCHA_ENTERPRISE,
            Map.of("sitekey", "k", "pageUrl", PAGE, "minScore", "0.5"),
            "minScore requires version v3"),
        invalid(
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "k", "pageUrl", PAGE, "cData", "x"),
            "cData is not a field of TURNSTILE"),
        invalid(
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "k", "pageUrl", PAGE, "proxy", "nohost"),
            "proxy must be host:port or user:pass@host:port"),
        invalid(
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "k", "pageUrl", PAGE, "proxy", "1.2.3.4:99999"),
            "proxy must be host:port or user:pass@host:port"),
        invalid(
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "k", "pageUrl", PAGE, "proxy", "1.2.3.4:80", "proxyType", "FTP"),
            "proxyType must be one of HTTP, HTTPS, SOCKS4, SOCKS5"),
        invalid(
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "k", "pageUrl", PAGE, "proxyType", "HTTP"),
            "proxyType requires proxy"),
        invalid(
            CaptchaType.CLOUDFLARE_CHALLENGE,
            Map.of("pageUrl", PAGE),
            "proxy is required for CLOUDFLARE_CHALLENGE"),
        invalid(
            CaptchaType.CLOUDFLARE_CHALLENGE,
            Map.of("pageUrl", PAGE, "proxy", "1.2.3.4:80"),
            "proxyType is required for CLOUDFLARE_CHALLENGE"),
        invalid(
            CaptchaType.CLOUDFLARE_CHALLENGE,
            Map.of("pageUrl", PAGE, "proxy", "1.2.3.4:80", "proxyType", "SOCKS5"),
            "proxyType must be HTTP or HTTPS for CLOUDFLARE_CHALLENGE"),
        invalid(CaptchaType.IMAGE, Map.of(), "body is required"),
        invalid(CaptchaType.IMAGE, Map.of("body", "not base64!"), "body must be valid base64"),
        invalid(
            CaptchaType.IMAGE,
            Map.of("body", Base64.getEncoder().encodeToString(new byte[99])),
            "body must decode to 100..102400 bytes, got 99"),
        invalid(
            CaptchaType.IMAGE,
            Map.of("body", Base64.getEncoder().encodeToString(new byte[100 * 1024 + 1])),
            "body must decode to 100..102400 bytes, got 102401"),
        invalid(
            CaptchaType.IMAGE,
            Map.of("body", IMAGE, "numeric", "5"),
            "numeric must be between 0 and 4"),
        invalid(
            CaptchaType.IMAGE,
            Map.of("body", IMAGE, "minLen", "four"),
            "minLen must be an integer"),
        invalid(
            CaptchaType.IMAGE,
            Map.of("body", IMAGE, "minLen", "8", "maxLen", "4"),
            "minLen must not exceed maxLen"),
        invalid(
            CaptchaType.IMAGE,
            Map.of("body", IMAGE, "pageUrl", PAGE),
            "pageUrl is not a field of IMAGE"),
        invalid(CaptchaType.GEETEST, Map.of("gt", "g", "pageUrl", PAGE), "challenge is required"),
        invalid(
            CaptchaType.GEETEST,
            Map.of("gt", "g", "challenge", "c", "pageUrl", PAGE, "apiServer", ""),
            "apiServer must not be blank"),
        invalid(CaptchaType.GEETEST_V4, Map.of("pageUrl", PAGE), "captchaId is required"),
        invalid(
            CaptchaType.GEETEST_V4,
            Map.of("captchaId", "c", "pageUrl", PAGE, "gt", "g"),
            "gt is not a field of GEETEST_V4"));
  }

  private static Arguments invalid(CaptchaType type, Map<String, String> params, String message) {
    return Arguments.of(type, params, message);
  }

  @ParameterizedTest(name = "{0} {1} fails with \"{2}\"")
  @MethodSource("invalidTasks")
  void anInvalidTaskFailsWithAMessageStartingWithTheField(
      CaptchaType type, Map<String, String> params, String message) {
    InvalidTaskException e =
        catchThrowableOfType(InvalidTaskException.class, () -> CaptchaTask.of(type, params));

    assertThat(e).hasMessage(message);
    assertThat(message).startsWith(e.field() + " ");
  }

  @Test
  void cookiesAndImageBodiesMayExceedTheUsualLengthLimit() {
    String cookies = "c=" + "x".repeat(10_000);
    Map<String, String> params = new HashMap<>(Map.of("sitekey", "k", "pageUrl", PAGE));
    params.put("cookies", cookies);

    assertThat(CaptchaTask.of(CaptchaType.RECAPTCHA_V2, params).params())
        .containsEntry("cookies", cookies);
    assertThat(ImageTask.of(new byte[100 * 1024]).body().length()).isGreaterThan(4096);
  }

  @Test
  void theStaticFactoriesBuildValidTasks() {
    List<CaptchaTask> tasks =
        List.of(
            RecaptchaV2Task.of("k", PAGE),
            RecaptchaV3Task.of("k", PAGE),
            RecaptchaEnterpriseTask.of("k", PAGE),
            TurnstileTask.of("k", PAGE),
            ImageTask.of(IMAGE),
            CloudflareChallengeTask.of(PAGE, Proxy.http("1.2.3.4:80")),
            GeeTestTask.of("g", "c", PAGE),
            GeeTestV4Task.of("c", PAGE));

    assertThat(tasks)
        .allSatisfy(t -> assertThat(CaptchaTask.of(t.type(), t.params())).isEqualTo(t));
  }
}
