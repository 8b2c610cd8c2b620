package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaType;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The public request of a solve: what each factory puts in it, and that every bad field is refused
 * on construction with an {@link InvalidSolveRequestException} naming the field.
 */
@Tag("unit")
class SolveRequestTest {

  static final String SITEKEY = "0x4AAAAAAAB";
  static final String PAGE = "https://shop.example/checkout";

  static SolveRequest turnstile() {
    return SolveRequest.turnstile("order-42", SITEKEY, PAGE);
  }

  @Test
  void theFactoriesPutOurFieldNamesAndLeaveOutWhatIsNotGiven() {
    assertThat(turnstile().params())
        .containsExactly(Map.entry("pageUrl", PAGE), Map.entry("sitekey", SITEKEY));
    assertThat(SolveRequest.recaptchaV3("k", "6Le-key", PAGE, null, 0.7).params())
        .containsExactly(
            Map.entry("minScore", "0.7"),
            Map.entry("pageUrl", PAGE),
            Map.entry("sitekey", "6Le-key"));
    assertThat(SolveRequest.geetest("k", "gt-value", "challenge-value", PAGE).params())
        .containsOnlyKeys("gt", "challenge", "pageUrl");
    assertThat(turnstile().type()).isEqualTo(CaptchaType.TURNSTILE);
    assertThat(turnstile().priority()).isZero();
    assertThat(turnstile().callbackUrl()).isNull();
    assertThat(turnstile().batch()).isNull();
  }

  @Test
  void aCopyWithAFieldIsValidatedAgainAndANullValueRemovesTheField() {
    SolveRequest withAction = turnstile().with("action", "checkout");

    assertThat(withAction.params()).containsEntry("action", "checkout");
    assertThat(withAction.with("action", null).params()).doesNotContainKey("action");
    assertThat(turnstile().params()).doesNotContainKey("action"); // the original is unchanged
    assertThatThrownBy(() -> withAction.with("pageUrl", null))
        .isInstanceOf(InvalidSolveRequestException.class)
        .extracting(e -> ((InvalidSolveRequestException) e).field())
        .isEqualTo("pageUrl");
  }

  @Test
  void theParametersCannotBeChangedFromOutside() {
    Map<String, String> params = new HashMap<>(Map.of("sitekey", SITEKEY, "pageUrl", PAGE));
    SolveRequest request = SolveRequest.of("order-1", CaptchaType.TURNSTILE, params);

    params.put("sitekey", "changed");

    assertThat(request.params()).containsEntry("sitekey", SITEKEY);
    assertThatThrownBy(() -> request.params().put("action", "x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aCloudflareChallengeFromItsFactoryIsAcceptedThroughAnHttpProxyByDefault() {
    SolveRequest request =
        SolveRequest.cloudflareChallenge("cf-2", PAGE, "user:pass@proxy.example:8080");

    assertThat(request.type()).isEqualTo(CaptchaType.CLOUDFLARE_CHALLENGE);
    assertThat(request.params()).containsEntry("proxyType", "HTTP");
  }

  @Test
  void aCloudflareChallengeThroughASocksProxyIsRefusedNamingProxyType() {
    assertThatThrownBy(
            () ->
                SolveRequest.cloudflareChallenge(
                    "cf-3", PAGE, "user:pass@proxy.example:1080", "SOCKS5"))
        .hasMessageContaining("proxyType");
  }

  @Test
  void itPrintsTheTypeAndTheKeyButNeverTheParameters() {
    SolveRequest request =
        SolveRequest.of(
            "cf-1",
            CaptchaType.CLOUDFLARE_CHALLENGE,
            Map.of(
                "pageUrl", PAGE,
                "proxy", "user:secret-password@proxy.example:8080",
                "proxyType", "HTTP"));

    assertThat(request.toString())
        .isEqualTo("SolveRequest[CLOUDFLARE_CHALLENGE cf-1]")
        .doesNotContain("secret-password");
  }

  @Test
  void theBatchLabelIsKeptAndNotPartOfTheParameters() {
    SolveRequest labelled = turnstile().withBatch("black-friday").withPriority(5);

    assertThat(labelled.batch()).isEqualTo("black-friday");
    assertThat(labelled.priority()).isEqualTo(5);
    assertThat(labelled.params()).isEqualTo(turnstile().params());
  }

  static Stream<Arguments> badRequests() {
    return Stream.of(
        Arguments.of(
            "no business key",
            "businessKey",
            (Supplier<SolveRequest>) () -> SolveRequest.turnstile(null, SITEKEY, PAGE)),
        Arguments.of(
            "empty business key",
            "businessKey",
            (Supplier<SolveRequest>) () -> SolveRequest.turnstile("", SITEKEY, PAGE)),
        Arguments.of(
            "business key of 201 characters",
            "businessKey",
            (Supplier<SolveRequest>) () -> SolveRequest.turnstile("k".repeat(201), SITEKEY, PAGE)),
        Arguments.of(
            "control character in the business key",
            "businessKey",
            (Supplier<SolveRequest>) () -> SolveRequest.turnstile("order\n42", SITEKEY, PAGE)),
        Arguments.of(
            "no type",
            "type",
            (Supplier<SolveRequest>)
                () -> SolveRequest.of("k", null, Map.of("sitekey", SITEKEY, "pageUrl", PAGE))),
        Arguments.of(
            "null field name",
            "(null)",
            (Supplier<SolveRequest>) () -> turnstile().with(null, "x")),
        Arguments.of(
            "missing sitekey",
            "sitekey",
            (Supplier<SolveRequest>) () -> SolveRequest.turnstile("k", null, PAGE)),
        Arguments.of(
            "priority 11", "priority", (Supplier<SolveRequest>) () -> turnstile().withPriority(11)),
        Arguments.of(
            "relative callback URL",
            "callbackUrl",
            (Supplier<SolveRequest>) () -> turnstile().withCallbackUrl("/hooks/solved")),
        Arguments.of(
            "ftp callback URL",
            "callbackUrl",
            (Supplier<SolveRequest>)
                () -> turnstile().withCallbackUrl("ftp://hooks.example/solved")),
        Arguments.of(
            "blank batch", "batch", (Supplier<SolveRequest>) () -> turnstile().withBatch(" ")),
        Arguments.of(
            "batch of 201 characters",
            "batch",
            (Supplier<SolveRequest>)
                () -> turnstile().withBatch("b".repeat(SolveRequest.MAX_BATCH + 1))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRequests")
  void aBadFieldIsRefusedOnConstructionNamingTheField(
      String bad, String field, Supplier<SolveRequest> build) {
    assertThatThrownBy(build::get)
        .isInstanceOf(InvalidSolveRequestException.class)
        .hasMessageStartingWith(field + " ")
        .extracting(e -> ((InvalidSolveRequestException) e).field())
        .isEqualTo(field);
  }
}
