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
        "{pingbackUrl(String)} must be https unless it names this host (localhost, 127.0.0.1,"
            + " [::1]): answers and signed URLs would travel in clear text");
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
}
