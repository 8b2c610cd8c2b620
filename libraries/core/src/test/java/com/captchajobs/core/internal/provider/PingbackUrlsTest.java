package com.captchajobs.core.internal.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.PingbackSettings;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a pingback URL may be, and the host a worker registers for it. */
@Tag("unit")
class PingbackUrlsTest {

  @Test
  void onlyHttpsLeavesThisHostAndLoopbackHttpStaysAllowed() {
    assertThat(
            PingbackSettings.clearTextOffLoopback("http://solves.example.com/captchaai/pingback"))
        .isTrue();
    assertThat(PingbackSettings.clearTextOffLoopback("http://10.0.0.5:8080/captchaai/pingback"))
        .isTrue();
    assertThat(PingbackSettings.clearTextOffLoopback("http://localhost:8080/captchaai/pingback"))
        .isFalse();
    assertThat(PingbackSettings.clearTextOffLoopback("http://127.0.0.1:8080/captchaai/pingback"))
        .isFalse();
    assertThat(PingbackSettings.clearTextOffLoopback("http://[::1]:8080/captchaai/pingback"))
        .isFalse();
    assertThat(
            PingbackSettings.clearTextOffLoopback("https://solves.example.com/captchaai/pingback"))
        .isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1.example.net/captchaai/pingback",
        "http://127.0.0.1.nip.example:8080/captchaai/pingback",
        "http://127.example.net/captchaai/pingback",
        "http://127.0.0.256/captchaai/pingback",
        "http://127.1/captchaai/pingback",
        "http://localhost.example.net/captchaai/pingback",
        "http://[::2]/captchaai/pingback",
        "http://[1::]/captchaai/pingback",
        "http://[::ffff:127.0.0.1]/captchaai/pingback",
        "http://user@127.0.0.1.example.net/captchaai/pingback"
      })
  void aNameThatOnlyLooksLikeLoopbackNeedsHttps(String url) {
    assertThat(PingbackSettings.clearTextOffLoopback(url)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://LOCALHOST/captchaai/pingback",
        "http://127.255.0.9:8080/captchaai/pingback",
        "http://[0:0:0:0:0:0:0:1]:8080/captchaai/pingback",
        "http://[::0:1]/captchaai/pingback"
      })
  void aLiteralLoopbackAddressMayStayOnPlainHttp(String url) {
    assertThat(PingbackSettings.clearTextOffLoopback(url)).isFalse();
  }

  @Test
  void aWorkerGivenAHostNameStartingWith127RefusesToBuildNamingTheKey() {
    assertThatThrownBy(
            () ->
                CaptchaJobs.builder()
                    .dataSource(new org.postgresql.ds.PGSimpleDataSource())
                    .apiKey("pingbackUrlsKeyPINGBACKurlsKEY12")
                    .pingbackSecret("pingback-secret-of-the-urls-test-0123456789")
                    .pingbackUrl("http://127.0.0.1.nip.example/captchaai/pingback")
                    .build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("PingbackSettings.url(String)")
        .hasMessageContaining("must be https");
  }

  @Test
  void theRegisteredHostIsTheUrlsHostWithoutSchemePortOrPath() {
    assertThat(PingbackSettings.host("https://solves.example.com:8443/captchaai/pingback"))
        .isEqualTo("solves.example.com");
    assertThat(PingbackSettings.host("http://[::1]:8080/captchaai/pingback")).isEqualTo("[::1]");
  }

  @Test
  void aWorkerGivenAPlainHttpUrlToAnotherHostRefusesToBuildNamingTheKey() {
    assertThatThrownBy(
            () ->
                CaptchaJobs.builder()
                    .dataSource(new org.postgresql.ds.PGSimpleDataSource())
                    .apiKey("pingbackUrlsKeyPINGBACKurlsKEY12")
                    .pingbackSecret("pingback-secret-of-the-urls-test-0123456789")
                    .pingbackUrl("http://solves.example.com/captchaai/pingback")
                    .build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("PingbackSettings.url(String)")
        .hasMessageContaining("must be https");
  }
}
