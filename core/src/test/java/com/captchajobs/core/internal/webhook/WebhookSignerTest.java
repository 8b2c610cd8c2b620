package com.captchajobs.core.internal.webhook;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WebhookSignerTest {

  @Test
  void theSignatureIsTheHmacSha256OfTheExactBodyAndAnyChangeBreaksIt() {
    WebhookSigner signer = new WebhookSigner("key");
    byte[] body = "The quick brown fox jumps over the lazy dog".getBytes(UTF_8);

    // RFC 4231-style known answer (the widely published HMAC-SHA256 example).
    assertThat(signer.sign(body))
        .isEqualTo("sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8");
    assertThat(signer.verify(body, signer.sign(body))).isTrue();
    assertThat(
            signer.verify(
                "The quick brown fox jumps over the lazy dog.".getBytes(UTF_8), signer.sign(body)))
        .isFalse();
    assertThat(new WebhookSigner("other").verify(body, signer.sign(body))).isFalse();
    assertThat(signer.toString()).doesNotContain("key]");
  }
}
