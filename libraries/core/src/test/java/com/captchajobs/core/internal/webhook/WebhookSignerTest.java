package com.captchajobs.core.internal.webhook;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
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

  @Test
  void aClientWithoutASecretOfItsOwnSignsWithAKeyDerivedFromTheNodeSecretAndItsName() {
    // printf 'captchajobs-webhook-key-v1:shop' | openssl dgst -sha256 -hmac node-secret-0123456789
    assertThat(WebhookSigner.derivedKey("node-secret-0123456789", "shop"))
        .isEqualTo("aca8d78639e790b479ed4d1205924223181af58db2509f30f08281c0a8b5b2c3");

    Function<String, WebhookSigner> signers =
        WebhookSigner.perClient(
            "node-secret-0123456789", Map.of("alice", "alice-secret-0123456789"));
    byte[] body = "{}".getBytes(UTF_8);

    String shop = signers.apply("shop").sign(body);
    assertThat(
            new WebhookSigner(WebhookSigner.derivedKey("node-secret-0123456789", "shop"))
                .verify(body, shop))
        .isTrue();
    assertThat(new WebhookSigner("node-secret-0123456789").verify(body, shop))
        .as("the node secret does not verify a client's webhook")
        .isFalse();
    assertThat(signers.apply("other").verify(body, shop))
        .as("another client's key does not verify it")
        .isFalse();
    assertThat(
            new WebhookSigner("alice-secret-0123456789")
                .verify(body, signers.apply("alice").sign(body)))
        .isTrue();
    String javaApi = signers.apply("java-api").sign(body);
    assertThat(
            new WebhookSigner(WebhookSigner.derivedKey("node-secret-0123456789", "java-api"))
                .verify(body, javaApi))
        .as("the Java API's webhooks are signed with a derived key like every client's")
        .isTrue();
    assertThat(new WebhookSigner("node-secret-0123456789").verify(body, javaApi))
        .as("no receiver needs the node secret")
        .isFalse();
    assertThat(
            WebhookSigner.perClient(null, Map.of("alice", "alice-secret-0123456789")).apply("shop"))
        .as("no node secret: only clients with their own get a signer")
        .isNull();
  }
}
