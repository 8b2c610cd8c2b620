package com.captchajobs.simulator;

import static com.captchajobs.simulator.ApiClient.params;
import static com.captchajobs.simulator.CaptchaAiSimulator.SANDBOX_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Tag("unit")
class SubmitValidationTest {
  @RegisterExtension
  static final SimulatorExtension sim =
      new SimulatorExtension(CaptchaAiSimulator.builder().account(SANDBOX_KEY, 1000));

  static final String SMALL = Base64.getEncoder().encodeToString(new byte[99]);
  static final String BIG = Base64.getEncoder().encodeToString(new byte[100 * 1024 + 1]);
  static final String OK_IMAGE = Base64.getEncoder().encodeToString(new byte[100]);

  ApiClient client;

  @BeforeEach
  void setUp() {
    client = new ApiClient(sim.get().baseUrl());
  }

  static Stream<Arguments> invalidSubmits() {
    return Stream.of(
        Arguments.of(
            "ERROR_NO_SUCH_METHOD",
            new String[] {"method", "hcaptcha", "sitekey", "s", "pageurl", "https://p"}),
        Arguments.of("ERROR_NO_SUCH_METHOD", new String[] {"pageurl", "https://p"}),
        Arguments.of(
            "ERROR_GOOGLEKEY", new String[] {"method", "userrecaptcha", "pageurl", "https://p"}),
        Arguments.of("ERROR_PAGEURL", new String[] {"method", "userrecaptcha", "googlekey", "g"}),
        Arguments.of(
            "ERROR_BAD_TOKEN_OR_PAGEURL",
            new String[] {
              "method", "userrecaptcha", "googlekey", "invalid", "pageurl", "https://p"
            }),
        Arguments.of(
            "ERROR_GOOGLEKEY", new String[] {"method", "turnstile", "pageurl", "https://p"}),
        Arguments.of("ERROR_PAGEURL", new String[] {"method", "turnstile", "sitekey", "s"}),
        Arguments.of(
            "ERROR_BAD_TOKEN_OR_PAGEURL",
            new String[] {"method", "turnstile", "sitekey", "invalid", "pageurl", "https://p"}),
        Arguments.of(
            "ERROR_PAGEURL",
            new String[] {
              "method", "cloudflare_challenge", "proxy", "1.2.3.4:80", "proxytype", "HTTP"
            }),
        Arguments.of(
            "ERROR_BAD_PARAMETERS",
            new String[] {"method", "cloudflare_challenge", "pageurl", "https://p"}),
        Arguments.of(
            "ERROR_BAD_PARAMETERS",
            new String[] {
              "method", "cloudflare_challenge", "pageurl", "https://p", "proxy", "1.2.3.4:80"
            }),
        Arguments.of("ERROR_UPLOAD", new String[] {"method", "base64", "body", "not*base64!"}),
        Arguments.of(
            "ERROR_ZERO_CAPTCHA_FILESIZE", new String[] {"method", "base64", "body", SMALL}),
        Arguments.of("ERROR_ZERO_CAPTCHA_FILESIZE", new String[] {"method", "base64"}),
        Arguments.of(
            "ERROR_BAD_PARAMETERS",
            new String[] {"method", "geetest", "gt", "g", "pageurl", "https://p"}),
        Arguments.of(
            "ERROR_BAD_PARAMETERS",
            new String[] {"method", "geetest", "challenge", "c", "pageurl", "https://p"}),
        Arguments.of(
            "ERROR_PAGEURL", new String[] {"method", "geetest", "gt", "g", "challenge", "c"}),
        Arguments.of(
            "ERROR_PAGEURL", new String[] {"method", "geetest", "version", "4", "gt", "g"}),
        Arguments.of(
            "ERROR_PROXY_FORMAT",
            new String[] {
              "method", "turnstile", "sitekey", "s", "pageurl", "https://p", "proxy", "nonsense"
            }),
        Arguments.of(
            "ERROR_PROXY_FORMAT",
            new String[] {
              "method", "turnstile", "sitekey", "s", "pageurl", "https://p", "proxy", "host:99999"
            }),
        Arguments.of(
            "ERROR_BAD_PROXY",
            new String[] {
              "method",
              "turnstile",
              "sitekey",
              "s",
              "pageurl",
              "https://p",
              "proxy",
              "u:p@bad.proxy:3128"
            }));
  }

  @ParameterizedTest(name = "{0} for {1}")
  @MethodSource("invalidSubmits")
  void invalidSubmitIsRejectedWithItsDocumentedCode(String code, String[] pairs) {
    assertThat(client.submitJson(SANDBOX_KEY, pairs).get("request").asString())
        .as(Arrays.toString(pairs))
        .isEqualTo(code);
  }

  @Test
  void oversizedBase64ImagePostedAsFormIsTooBig() {
    assertThat(
            ApiClient.json(
                    client.postForm(
                        "/in.php",
                        params("key", SANDBOX_KEY, "json", "1", "method", "base64", "body", BIG)))
                .get("request")
                .asString())
        .isEqualTo("ERROR_TOO_BIG_CAPTCHA_FILESIZE");
  }

  @Test
  void uploadedFileIsCheckedForExtensionSizeAndPresence() {
    Map<String, String> post = params("key", SANDBOX_KEY, "json", "1", "method", "post");
    assertThat(code(client.postMultipart("/in.php", post, "captcha.txt", new byte[500]).body()))
        .isEqualTo("ERROR_WRONG_FILE_EXTENSION");
    assertThat(code(client.postMultipart("/in.php", post, "captcha.PNG", new byte[10]).body()))
        .isEqualTo("ERROR_ZERO_CAPTCHA_FILESIZE");
    assertThat(
            code(
                client
                    .postMultipart("/in.php", post, "captcha.gif", new byte[100 * 1024 + 1])
                    .body()))
        .isEqualTo("ERROR_TOO_BIG_CAPTCHA_FILESIZE");
    assertThat(code(client.postMultipart("/in.php", post, null, null).body()))
        .isEqualTo("ERROR_UPLOAD");
    assertThat(code(client.postMultipart("/in.php", post, "captcha.jpeg", new byte[100]).body()))
        .matches("\\d+");
  }

  @Test
  void optionalRecaptchaParametersAreAccepted() {
    assertThat(
            client
                .submitJson(
                    SANDBOX_KEY,
                    "method",
                    "userrecaptcha",
                    "version",
                    "v3",
                    "enterprise",
                    "1",
                    "action",
                    "login",
                    "min_score",
                    "0.7",
                    "googlekey",
                    "g",
                    "pageurl",
                    "https://p")
                .get("status")
                .asInt())
        .isEqualTo(1);
    assertThat(
            client
                .submitJson(
                    SANDBOX_KEY,
                    "method",
                    "userrecaptcha",
                    "invisible",
                    "1",
                    "data-s",
                    "xyz",
                    "googlekey",
                    "g",
                    "pageurl",
                    "https://p",
                    "proxy",
                    "10.0.0.1:8080",
                    "proxytype",
                    "SOCKS5")
                .get("status")
                .asInt())
        .isEqualTo(1);
    assertThat(
            client
                .submitJson(SANDBOX_KEY, "method", "base64", "body", OK_IMAGE)
                .get("status")
                .asInt())
        .isEqualTo(1);
    assertThat(
            client
                .submitJson(
                    SANDBOX_KEY,
                    "method",
                    "geetest",
                    "version",
                    "4",
                    "gt",
                    "cid",
                    "pageurl",
                    "https://p")
                .get("status")
                .asInt())
        .isEqualTo(1);
  }

  private static String code(String body) {
    return ApiClient.JSON.readTree(body).get("request").asString();
  }
}
