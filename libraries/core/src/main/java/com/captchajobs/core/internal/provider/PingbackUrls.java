package com.captchajobs.core.internal.provider;

import com.captchajobs.core.pingback.PingbackReceiver;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
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

  /** The path under which app nodes serve pushes; the configured base URL ends with it. */
  public static final String PATH = PingbackReceiver.PATH;

  /** The shortest pingback secret accepted. */
  public static final int MIN_SECRET_CHARS = PingbackReceiver.MIN_SECRET_CHARS;

  private static final String SIGNED_PREFIX = "captchajobs-pingback-v1:";

  private final String baseUrl;
  private final SecretKeySpec key;

  /**
   * @param baseUrl where the provider reaches an app node, ending in {@link #PATH}; null on a node
   *     that only receives pushes
   * @param secret the fleet's pingback secret, at least {@link #MIN_SECRET_CHARS} characters
   */
  public PingbackUrls(String baseUrl, String secret) {
    if (secret == null || secret.length() < MIN_SECRET_CHARS) {
      throw new IllegalArgumentException(
          "captchaai.pingback-secret must be at least " + MIN_SECRET_CHARS + " characters");
    }
    this.baseUrl = baseUrl == null ? null : stripSlash(baseUrl);
    this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
  }

  /** Whether this node asks for pushes (it has a base URL). */
  public boolean sendsUrls() {
    return baseUrl != null;
  }

  /** The pingback URL of a solve's submission {@code submitNo}; null on a receive-only node. */
  public String urlFor(UUID solveId, int submitNo) {
    if (baseUrl == null) {
      return null;
    }
    return baseUrl + "/" + solveId + "/" + submitNo + "/" + sign(solveId, submitNo);
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

  /**
   * Whether a pingback URL would carry answers in clear text off this host: {@code http://} to a
   * host other than {@code localhost}, a {@code 127.x.x.x} address or {@code [::1]}. Such a URL is
   * refused at startup; only {@code https} may leave the host.
   */
  public static boolean clearTextOffLoopback(String url) {
    if (url == null || !url.startsWith("http://")) {
      return false;
    }
    String host = host(url);
    return !(host.equalsIgnoreCase("localhost") || host.startsWith("127.") || host.equals("[::1]"));
  }

  /** The host of an absolute http(s) URL, as written (an IPv6 address keeps its brackets). */
  public static String host(String url) {
    int start = url.indexOf("://") + 3;
    int end = start;
    if (end < url.length() && url.charAt(end) == '[') {
      int close = url.indexOf(']', end);
      return close < 0 ? url.substring(start) : url.substring(start, close + 1);
    }
    while (end < url.length() && "/:?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    String host = url.substring(start, end);
    int at = host.lastIndexOf('@');
    return at < 0 ? host : host.substring(at + 1);
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
