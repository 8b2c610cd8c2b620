package com.captchajobs.core.internal.webhook;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 over the exact bytes of a webhook body. A receiver recomputes it over the raw body it
 * read (before any JSON parsing) and compares in constant time; the body carries its own {@code
 * timestamp} and {@code client}, so the signature also covers when it was sent and for whom.
 *
 * <p>Every API client signs with a key of its own: its configured {@code webhook-secret}, else
 * {@link #derivedKey} of the node secret and its name. A receiver of one client therefore never
 * accepts a webhook that another client's solve produced.
 */
public final class WebhookSigner {

  /** The signature header: {@code sha256=<lower-case hex>}. */
  public static final String SIGNATURE_HEADER = "X-CaptchaJobs-Signature";

  /** When the delivery was made, epoch seconds (the same instant as the body's timestamp). */
  public static final String TIMESTAMP_HEADER = "X-CaptchaJobs-Timestamp";

  private static final String ALGORITHM = "HmacSHA256";

  /** What the node secret signs to derive a client's key; versioned so it can change. */
  static final String DERIVATION_PREFIX = "captchajobs-webhook-key-v1:";

  private final SecretKeySpec key;

  public WebhookSigner(String secret) {
    this.key = new SecretKeySpec(secret.getBytes(UTF_8), ALGORITHM);
  }

  /**
   * The signing key of a client that has no secret of its own: the lower-case hex HMAC-SHA256,
   * keyed with the node secret, of {@code captchajobs-webhook-key-v1:<client>}. An operator hands
   * it to the client's receiver; it reveals nothing of the node secret or of another client's key.
   */
  public static String derivedKey(String nodeSecret, String client) {
    return hex(
        new SecretKeySpec(nodeSecret.getBytes(UTF_8), ALGORITHM),
        (DERIVATION_PREFIX + client).getBytes(UTF_8));
  }

  /**
   * The signer of each client's webhooks: its own secret when configured, else the key derived from
   * the node secret and its name, the Java API's solves ({@code java-api}, the host application
   * itself) included: no receiver ever holds the node secret. Null for a client with neither.
   *
   * @param nodeSecret {@code captchajobs.webhook.secret}, or null
   * @param ownSecrets {@code captchajobs.api.clients.<name>.webhook-secret} by client name
   */
  public static Function<String, WebhookSigner> perClient(
      String nodeSecret, Map<String, String> ownSecrets) {
    Map<String, WebhookSigner> own = new HashMap<>();
    ownSecrets.forEach((client, secret) -> own.put(client, new WebhookSigner(secret)));
    Map<String, WebhookSigner> derived = new ConcurrentHashMap<>();
    return client -> {
      WebhookSigner signer = own.get(client);
      if (signer != null || nodeSecret == null) {
        return signer;
      }
      return derived.computeIfAbsent(client, c -> new WebhookSigner(derivedKey(nodeSecret, c)));
    };
  }

  /** {@code sha256=<hex>} of the body. */
  public String sign(byte[] body) {
    return "sha256=" + hex(key, body);
  }

  private static String hex(SecretKeySpec key, byte[] data) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return HexFormat.of().formatHex(mac.doFinal(data));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HMAC-SHA256 is not available", e);
    }
  }

  /** Whether {@code signature} is this body's, compared in constant time. */
  public boolean verify(byte[] body, String signature) {
    return signature != null
        && MessageDigest.isEqual(sign(body).getBytes(UTF_8), signature.getBytes(UTF_8));
  }

  @Override
  public String toString() {
    return "WebhookSigner[secret=***]";
  }
}
