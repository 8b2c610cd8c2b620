package com.captchajobs.core.internal.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.pingback.PingbackRules;
import com.captchajobs.core.settings.InvalidSettingException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a pingback URL may be, and the host a worker registers for it. */
@Tag("unit")
class PingbackUrlsTest {

  @Test
  void onlyHttpsLeavesThisHostAndLoopbackHttpStaysAllowed() {
    assertThat(PingbackRules.clearTextOffLoopback("http://solves.example.com/captchaai/pingback"))
        .isTrue();
    assertThat(PingbackRules.clearTextOffLoopback("http://10.0.0.5:8080/captchaai/pingback"))
        .isTrue();
    assertThat(PingbackRules.clearTextOffLoopback("http://localhost:8080/captchaai/pingback"))
        .isFalse();
    assertThat(PingbackRules.clearTextOffLoopback("http://127.0.0.1:8080/captchaai/pingback"))
        .isFalse();
    assertThat(PingbackRules.clearTextOffLoopback("http://[::1]:8080/captchaai/pingback"))
        .isFalse();
    assertThat(PingbackRules.clearTextOffLoopback("https://solves.example.com/captchaai/pingback"))
        .isFalse();
  }

  @Test
  void theRegisteredHostIsTheUrlsHostWithoutSchemePortOrPath() {
    assertThat(PingbackRules.host("https://solves.example.com:8443/captchaai/pingback"))
        .isEqualTo("solves.example.com");
    assertThat(PingbackRules.host("http://[::1]:8080/captchaai/pingback")).isEqualTo("[::1]");
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
        .hasMessageContaining("pingbackUrl")
        .hasMessageContaining("must be https");
  }
}
