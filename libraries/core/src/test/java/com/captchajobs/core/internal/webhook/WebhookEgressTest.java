package com.captchajobs.core.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.internal.egress.WebhookEgress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.Dns;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
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

  @Test
  void ipv6FormsThatEmbedAPrivateIpv4AreRefusedLikeTheAddressTheyEmbed() {
    WebhookEgress egress = new WebhookEgress(Set.of(), Dns.SYSTEM);
    for (String refused :
        List.of(
            "::ffff:10.0.0.1", // IPv4-mapped
            "::10.0.0.1", // IPv4-compatible
            "64:ff9b::a00:1", // NAT64 well-known prefix to 10.0.0.1
            "64:ff9b::a9fe:a9fe", // NAT64 to the metadata address 169.254.169.254
            "64:ff9b:1::808:808", // NAT64 local-use prefix: refused whatever it embeds
            "2002:a00:1::1", // 6to4 of 10.0.0.1
            "2002:7f00:1::1", // 6to4 of 127.0.0.1
            "2001:0:4136:e378:8000:63bf:f5ff:fffe", // Teredo, client 10.0.0.1 (inverted)
            "2001:0:c0a8:101:8000:63bf:f7f7:f7f7", // Teredo, server 192.168.1.1
            "::ffff:0:a00:1", // IPv4-translated (SIIT) 10.0.0.1
            "2606:4700:4700:1::5efe:a00:1", // ISATAP interface id of 10.0.0.1
            "2002:c058:6301::1", // 6to4 of the relay anycast 192.88.99.1
            "::ffff:192.88.99.1")) { // the 6to4 relay anycast
      assertThatThrownBy(() -> egress.check(HttpUrl.get("https://[" + refused + "]/hook")))
          .as(refused)
          .isInstanceOf(WebhookEgress.RefusedException.class)
          .hasMessageContaining("non-public address");
    }
  }

  @Test
  void ipv6FormsThatEmbedAPublicIpv4AreAccepted() throws Exception {
    WebhookEgress egress = new WebhookEgress(Set.of(), Dns.SYSTEM);
    for (String accepted :
        List.of(
            "64:ff9b::808:808", // NAT64 to 8.8.8.8
            "2002:808:808::1", // 6to4 of 8.8.8.8
            "2001:0:4136:e378:8000:63bf:f7f7:f7f7", // Teredo, client 8.8.8.8
            "2606:4700:4700::1111")) {
      assertThat(egress.check(HttpUrl.get("https://[" + accepted + "]/hook")))
          .as(accepted)
          .hasSize(1);
    }
  }

  @Test
  void theDeliveryClientIgnoresTheJvmProxySettings() throws Exception {
    ProxySelector before = ProxySelector.getDefault();
    try (ServerSocket proxy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        MockWebServer receiver = new MockWebServer()) {
      receiver.start();
      receiver.enqueue(new MockResponse.Builder().code(204).build());
      ProxySelector.setDefault(
          ProxySelector.of(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), proxy.getLocalPort())));
      proxy.setSoTimeout(1);
      OkHttpClient client = WebhookJob.httpClient(Duration.ofSeconds(10));

      try (Response response =
          client.newCall(new Request.Builder().url(receiver.url("/hook")).build()).execute()) {
        assertThat(response.code()).isEqualTo(204);
      }

      assertThat(client.proxy()).isEqualTo(Proxy.NO_PROXY);
      assertThat(receiver.getRequestCount()).isEqualTo(1);
      assertThatThrownBy(proxy::accept).isInstanceOf(SocketTimeoutException.class);
    } finally {
      ProxySelector.setDefault(before);
    }
  }
}
