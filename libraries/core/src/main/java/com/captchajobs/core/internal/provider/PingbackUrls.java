package com.captchajobs.core.internal.provider;

import com.captchajobs.core.pingback.PingbackReceiver;
import com.captchajobs.core.settings.PingbackSettings;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Objects;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The pingback URLs a worker hands the provider with every in.php, and their signatures: {@code
 * <base>/<solve id>/<submit no>/<signature>}, the signature being HMAC-SHA256 of the solve id and
 * the submission number under the fleet's pingback secret (see "Pushed answers" in
 * docs/pingback.md). The receiving side checks a push with {@link #verify}, in constant time.
 */
public final class PingbackUrls {

  private static final String SIGNED_PREFIX = "captchajobs-pingback-v1:";

  private final String baseUrl;
  private final SecretKeySpec key;

  /**
   * @param baseUrl where the provider reaches an app node, ending in {@link PingbackReceiver#PATH};
   *     null on a node that only receives pushes
   * @param secret the fleet's pingback secret, at least {@link PingbackReceiver#MIN_SECRET_CHARS}
   *     characters
   */
  public PingbackUrls(String baseUrl, String secret) {
    new PingbackSettings(baseUrl, Objects.requireNonNull(secret, "secret"), false); // its rules
    this.baseUrl = baseUrl == null ? null : stripSlash(baseUrl);
    this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
  }

  /** Whether this node asks for pushes (it has a base URL). */
  public boolean sendsUrls() {
    return baseUrl != null;
  }

  /** The pingback URL of a solve's submission {@code submitNo}; null on a receive-only node. */
  public String urlFor(UUID solveId, int submitNo) {
    return baseUrl == null
        ? null
        : baseUrl + "/" + solveId + "/" + submitNo + "/" + sign(solveId, submitNo);
  }

  /** Whether {@code signature} is the one of that submission, compared in constant time. */
  public boolean verify(UUID solveId, int submitNo, String signature) {
    byte[] expected = sign(solveId, submitNo).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.UTF_8));
  }

  private String sign(UUID solveId, int submitNo) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      byte[] digest =
          mac.doFinal((SIGNED_PREFIX + solveId + ":" + submitNo).getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required of every JVM", e);
    }
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
