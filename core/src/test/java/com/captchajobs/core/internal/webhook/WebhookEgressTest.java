package com.captchajobs.core.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.internal.egress.WebhookEgress;
import java.net.InetAddress;
import java.util.List;
import java.util.Set;
import okhttp3.Dns;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class WebhookEgressTest {

  /** Every name resolves to loopback: only an allowed origin may be reached. */
  private static final Dns LOOPBACK = host -> List.of(InetAddress.getLoopbackAddress());

  @Test
  void anEntryPinsSchemeAndPortHostAloneMeaningHttpsOn443() {
    assertThat(WebhookEgress.Origin.parse("Recv.Internal"))
        .isEqualTo(new WebhookEgress.Origin("https", "recv.internal", 443));
    assertThat(WebhookEgress.Origin.parse("recv.internal:8443"))
        .isEqualTo(new WebhookEgress.Origin("https", "recv.internal", 8443));
    assertThat(WebhookEgress.Origin.parse("http://recv.internal:8080"))
        .isEqualTo(new WebhookEgress.Origin("http", "recv.internal", 8080));
    assertThat(WebhookEgress.Origin.parse("http://recv.internal"))
        .isEqualTo(new WebhookEgress.Origin("http", "recv.internal", 80));
    assertThat(WebhookEgress.Origin.parse("https://[::1]:9443/"))
        .isEqualTo(new WebhookEgress.Origin("https", "::1", 9443));
    assertThat(WebhookEgress.Origin.parse("10.0.0.5"))
        .isEqualTo(new WebhookEgress.Origin("https", "10.0.0.5", 443));
  }

  @Test
  void anEntryThatIsNotAnOriginIsRefusedNamingTheKey() {
    for (String bad : List.of("ftp://x", "host:0", "host:http", "http://user@host:80", "[::1")) {
      assertThatThrownBy(() -> WebhookEgress.Origin.parse(bad))
          .as(bad)
          .hasMessageContaining("captchajobs.webhook.allowed-hosts")
          .hasMessageContaining(bad);
    }
  }

  @Test
  void anAllowedHostOpensOnlyItsOwnSchemeAndPort() throws Exception {
    WebhookEgress egress =
        new WebhookEgress(Set.of("recv.internal", "http://plain.internal:8080"), LOOPBACK);

    assertThat(egress.check(HttpUrl.get("https://recv.internal/hook"))).isNotEmpty();
    assertThat(egress.check(HttpUrl.get("http://plain.internal:8080/hook"))).isNotEmpty();
    for (String refused :
        List.of(
            "https://recv.internal:6379/",
            "http://recv.internal/hook",
            "http://recv.internal:443/hook",
            "http://plain.internal:6379/",
            "https://plain.internal:8080/",
            "http://plain.internal/")) {
      assertThatThrownBy(() -> egress.check(HttpUrl.get(refused)))
          .as(refused)
          .isInstanceOf(WebhookEgress.RefusedException.class)
          .hasMessageContaining("refused");
    }
  }
}
