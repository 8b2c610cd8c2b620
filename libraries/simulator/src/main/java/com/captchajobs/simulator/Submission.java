package com.captchajobs.simulator;

/**
 * A validated {@code in.php} request.
 *
 * @param method the plain method name ({@code userrecaptcha}, {@code turnstile}, ...)
 * @param variant the default-solve-time key: the method, or {@code userrecaptcha:v3}, {@code
 *     userrecaptcha:enterprise}
 * @param pageUrl null for image methods
 * @param siteKey googlekey, sitekey or gt (GeeTest captcha id); null for images
 * @param proxyHost null without proxy
 * @param bodyHash hex SHA-256 of the image bytes, null when there is no image
 */
record Submission(
    String method,
    String variant,
    String pageUrl,
    String siteKey,
    String proxyHost,
    String bodyHash,
    boolean enterprise,
    boolean geetestV4) {

  /** Identifies "the same logical request" for duplicate counting. */
  String fingerprint() {
    return method + '\u0000' + pageUrl + '\u0000' + siteKey + '\u0000' + bodyHash;
  }

  /** The engine's captcha type name, the one prices are given by ({@link KeyPlan#TYPES}). */
  String type() {
    return switch (method) {
      case "userrecaptcha" ->
          enterprise
              ? "RECAPTCHA_ENTERPRISE"
              : "userrecaptcha:v3".equals(variant) ? "RECAPTCHA_V3" : "RECAPTCHA_V2";
      case "turnstile" -> "TURNSTILE";
      case "cloudflare_challenge" -> "CLOUDFLARE_CHALLENGE";
      case "base64", "post" -> "IMAGE";
      case "geetest" -> geetestV4 ? "GEETEST_V4" : "GEETEST";
      default -> method.toUpperCase(java.util.Locale.ROOT);
    };
  }
}
