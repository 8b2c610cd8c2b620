package com.captchajobs.core.internal.webhook;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 over the exact bytes of a webhook body. A receiver recomputes it over the raw body it
 * read (before any JSON parsing) and compares in constant time; the body carries its own {@code
 * timestamp}, so the signature also covers when it was sent.
 */
public final class WebhookSigner {

  /** The signature header: {@code sha256=<lower-case hex>}. */
  public static final String SIGNATURE_HEADER = "X-CaptchaJobs-Signature";

  /** When the delivery was made, epoch seconds (the same instant as the body's timestamp). */
  public static final String TIMESTAMP_HEADER = "X-CaptchaJobs-Timestamp";

  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKeySpec key;

  public WebhookSigner(String secret) {
    this.key = new SecretKeySpec(secret.getBytes(UTF_8), ALGORITHM);
  }

  /** {@code sha256=<hex>} of the body. */
  public String sign(byte[] body) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
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
