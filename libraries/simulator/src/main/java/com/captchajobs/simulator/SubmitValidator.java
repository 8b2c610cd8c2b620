package com.captchajobs.simulator;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks an {@code in.php} request the way CaptchaAI does and turns it into a {@link Submission},
 * or throws {@link ApiError} with the documented code (see "Submitting" and "Error codes" in
 * docs/captchaai-contract.md).
 */
final class SubmitValidator {
  static final int MIN_IMAGE_BYTES = 100;
  static final int MAX_IMAGE_BYTES = 100 * 1024;

  /** A googlekey or sitekey with this value is rejected with {@code ERROR_BAD_TOKEN_OR_PAGEURL}. */
  static final String INVALID_SITE_KEY = "invalid";

  /** A proxy on this host is rejected with {@code ERROR_BAD_PROXY}. */
  static final String BAD_PROXY_HOST = "bad.proxy";

  private static final Pattern PROXY =
      Pattern.compile(
          "(?:([^:@/\\s]+):([^@/\\s]*)@)?([A-Za-z0-9.\\-]+|\\[[0-9A-Fa-f:]+]):(\\d{1,5})");
  private static final Set<String> PROXY_TYPES = Set.of("HTTP", "HTTPS", "SOCKS4", "SOCKS5");
  private static final Set<String> IMAGE_EXTENSIONS = Set.of("jpg", "jpeg", "gif", "png");

  private SubmitValidator() {}

  static Submission validate(RequestParams p) {
    String method = p.nonBlank("method");
    if (method == null) {
      throw new ApiError("ERROR_NO_SUCH_METHOD");
    }
    String proxyHost = proxyHost(p);
    return switch (method) {
      case "userrecaptcha" -> recaptcha(p, proxyHost);
      case "turnstile" -> token(p, "turnstile", p.nonBlank("sitekey"), proxyHost);
      case "cloudflare_challenge" -> cloudflare(p, proxyHost);
      case "base64" -> image("base64", decodeBase64(p.get("body")));
      case "post" -> image("post", uploadedFile(p));
      case "geetest" -> geetest(p, proxyHost);
      default -> throw new ApiError("ERROR_NO_SUCH_METHOD");
    };
  }

  private static Submission recaptcha(RequestParams p, String proxyHost) {
    String googleKey = p.nonBlank("googlekey");
    String pageUrl = requireSiteKeyAndPage(googleKey, p);
    boolean v3 = "v3".equalsIgnoreCase(p.nonBlank("version"));
    if (p.has("version") && !v3 && !"v2".equalsIgnoreCase(p.nonBlank("version"))) {
      throw new ApiError("ERROR_BAD_PARAMETERS");
    }
    if (p.has("min_score") && !isNumber(p.nonBlank("min_score"))) {
      throw new ApiError("ERROR_BAD_PARAMETERS");
    }
    boolean enterprise = "1".equals(p.nonBlank("enterprise"));
    String variant =
        enterprise ? "userrecaptcha:enterprise" : v3 ? "userrecaptcha:v3" : "userrecaptcha";
    return new Submission(
        "userrecaptcha", variant, pageUrl, googleKey, proxyHost, null, enterprise, false);
  }

  private static Submission token(
      RequestParams p, String method, String siteKey, String proxyHost) {
    String pageUrl = requireSiteKeyAndPage(siteKey, p);
    return new Submission(method, method, pageUrl, siteKey, proxyHost, null, false, false);
  }

  private static String requireSiteKeyAndPage(String siteKey, RequestParams p) {
    if (siteKey == null) {
      throw new ApiError("ERROR_GOOGLEKEY");
    }
    String pageUrl = p.nonBlank("pageurl");
    if (pageUrl == null) {
      throw new ApiError("ERROR_PAGEURL");
    }
    if (INVALID_SITE_KEY.equals(siteKey)) {
      throw new ApiError("ERROR_BAD_TOKEN_OR_PAGEURL");
    }
    return pageUrl;
  }

  private static Submission cloudflare(RequestParams p, String proxyHost) {
    String pageUrl = p.nonBlank("pageurl");
    if (pageUrl == null) {
      throw new ApiError("ERROR_PAGEURL");
    }
    if (proxyHost == null || !p.has("proxytype")) {
      throw new ApiError("ERROR_BAD_PARAMETERS");
    }
    return new Submission(
        "cloudflare_challenge",
        "cloudflare_challenge",
        pageUrl,
        null,
        proxyHost,
        null,
        false,
        false);
  }

  private static Submission geetest(RequestParams p, String proxyHost) {
    boolean v4 = "4".equals(p.nonBlank("version"));
    String gt = p.has("gt") ? p.nonBlank("gt") : v4 ? p.nonBlank("captcha_id") : null;
    if (gt == null || (!v4 && !p.has("challenge"))) {
      throw new ApiError("ERROR_BAD_PARAMETERS");
    }
    String pageUrl = p.nonBlank("pageurl");
    if (pageUrl == null) {
      throw new ApiError("ERROR_PAGEURL");
    }
    return new Submission("geetest", "geetest", pageUrl, gt, proxyHost, null, false, v4);
  }

  private static Submission image(String method, byte[] bytes) {
    if (bytes.length < MIN_IMAGE_BYTES) {
      throw new ApiError("ERROR_ZERO_CAPTCHA_FILESIZE");
    }
    if (bytes.length > MAX_IMAGE_BYTES) {
      throw new ApiError("ERROR_TOO_BIG_CAPTCHA_FILESIZE");
    }
    return new Submission(method, method, null, null, null, sha256(bytes), false, false);
  }

  private static byte[] decodeBase64(String body) {
    if (body == null) {
      return new byte[0];
    }
    String cleaned = body.strip();
    int comma = cleaned.indexOf(',');
    if (cleaned.startsWith("data:") && comma > 0) {
      cleaned = cleaned.substring(comma + 1);
    }
    // line breaks are common in base64; a space is a '+' that the client forgot to URL-encode
    cleaned = cleaned.replace("\r", "").replace("\n", "").replace(' ', '+');
    try {
      return Base64.getDecoder().decode(cleaned);
    } catch (IllegalArgumentException e) {
      throw new ApiError("ERROR_UPLOAD");
    }
  }

  private static byte[] uploadedFile(RequestParams p) {
    FilePart file = p.file();
    if (p.malformedBody() || file == null) {
      throw new ApiError("ERROR_UPLOAD");
    }
    String name = file.filename().toLowerCase(Locale.ROOT);
    int dot = name.lastIndexOf('.');
    if (dot < 0 || !IMAGE_EXTENSIONS.contains(name.substring(dot + 1))) {
      throw new ApiError("ERROR_WRONG_FILE_EXTENSION");
    }
    return file.bytes();
  }

  /** The proxy's host, null without proxy; throws on a malformed or scripted-bad proxy. */
  private static String proxyHost(RequestParams p) {
    String proxy = p.nonBlank("proxy");
    if (proxy == null) {
      return null;
    }
    Matcher m = PROXY.matcher(proxy);
    if (!m.matches() || Integer.parseInt(m.group(4)) < 1 || Integer.parseInt(m.group(4)) > 65535) {
      throw new ApiError("ERROR_PROXY_FORMAT");
    }
    String type = p.nonBlank("proxytype");
    if (type != null && !PROXY_TYPES.contains(type.toUpperCase(Locale.ROOT))) {
      throw new ApiError("ERROR_PROXY_FORMAT");
    }
    String host = m.group(3).toLowerCase(Locale.ROOT);
    if (BAD_PROXY_HOST.equals(host)) {
      throw new ApiError("ERROR_BAD_PROXY");
    }
    return host;
  }

  private static boolean isNumber(String s) {
    try {
      Double.parseDouble(s);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }
}
