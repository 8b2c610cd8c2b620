package com.captchajobs.core.pingback;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import com.captchajobs.core.settings.InvalidSettingException;

/**
 * The rules of the pingback settings, checked here and nowhere else: {@code
 * CaptchaJobs.Builder.build()} calls {@link #check}, and so does the Spring Boot starter, which
 * names the properties ({@code captchaai.pingback-url}, {@code captchaai.pingback-secret}) where
 * the builder names its methods.
 */
public final class PingbackRules {

  private PingbackRules() {}

  /**
   * Refuses a pingback URL and secret that cannot work: a URL needs the secret; the secret has at
   * least {@link PingbackReceiver#MIN_SECRET_CHARS} characters; the URL is absolute http(s) without
   * query or fragment, and https unless it names this host.
   *
   * @param url the pingback URL, or null
   * @param secret the pingback secret, or null
   * @throws InvalidSettingException naming {@code pingbackUrl(String)} or {@code
   *     pingbackSecret(String)}
   */
  public static void check(String url, String secret) {
    require(
        url == null || secret != null,
        "{pingbackSecret(String)} is required with {pingbackUrl(String)}");
    require(
        secret == null || secret.length() >= PingbackReceiver.MIN_SECRET_CHARS,
        "{pingbackSecret(String)} must be at least "
            + PingbackReceiver.MIN_SECRET_CHARS
            + " characters");
    require(
        url == null
            || (url.startsWith("http://") || url.startsWith("https://"))
                && !url.contains("?")
                && !url.contains("#"),
        "{pingbackUrl(String)} must be an absolute http(s) URL without query or fragment");
    require(
        !clearTextOffLoopback(url),
        "{pingbackUrl(String)} must be https unless it names this host (localhost, a literal"
            + " 127.x.x.x address or [::1]): answers and signed URLs would travel in clear text");
  }

  /**
   * Whether a pingback URL would carry answers in clear text off this host: {@code http://} to a
   * host other than the name {@code localhost}, a literal address in {@code 127.0.0.0/8} or the
   * literal {@code [::1]}. A name that merely starts with {@code 127.} ({@code
   * 127.0.0.1.example.net}) is a name like any other and resolves wherever its owner likes. Such a
   * URL is refused at startup; only {@code https} may leave the host.
   */
  public static boolean clearTextOffLoopback(String url) {
    if (url == null || !url.startsWith("http://")) {
      return false;
    }
    return !isLoopbackLiteral(host(url));
  }

  /**
   * Whether a host, as written in a URL, is the name {@code localhost}, a dotted-quad literal in
   * {@code 127.0.0.0/8} or the bracketed IPv6 literal of {@code ::1} (in any of its spellings). No
   * name is resolved.
   */
  static boolean isLoopbackLiteral(String host) {
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      return isIpv6Loopback(host.substring(1, host.length() - 1));
    }
    String[] parts = host.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String part : parts) {
      if (!part.matches("[0-9]{1,3}") || Integer.parseInt(part) > 255) {
        return false;
      }
    }
    return Integer.parseInt(parts[0]) == 127;
  }

  private static boolean isIpv6Loopback(String literal) {
    if (!literal.matches("[0-9a-fA-F:]+")) {
      return false;
    }
    String[] halves = literal.split("::", -1);
    if (halves.length > 2) {
      return false;
    }
    String[] left = halves[0].isEmpty() ? new String[0] : halves[0].split(":", -1);
    String[] right =
        halves.length == 1 || halves[1].isEmpty() ? new String[0] : halves[1].split(":", -1);
    int zeros = 8 - left.length - right.length;
    if (halves.length == 1 ? zeros != 0 : zeros < 1) {
      return false;
    }
    int[] groups = new int[8];
    for (int i = 0; i < left.length; i++) {
      groups[i] = group(left[i]);
    }
    for (int i = 0; i < right.length; i++) {
      groups[8 - right.length + i] = group(right[i]);
    }
    for (int i = 0; i < 7; i++) {
      if (groups[i] != 0) {
        return false;
      }
    }
    return groups[7] == 1;
  }

  private static int group(String hex) {
    return hex.isEmpty() || hex.length() > 4 ? -1 : Integer.parseInt(hex, 16);
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
}
