package com.captchajobs.core.settings;

import static com.captchajobs.core.settings.InvalidSettingException.require;

/**
 * The pushes of answers by the provider (see docs/pingback.md): the fleet's secret of the signed
 * pingback URLs, and on a worker the app node's URL to push to. Its defaults are the {@code
 * DEFAULT_} constants here; the Spring Boot starter binds it from {@code captchaai.pingback-*}. Its
 * {@link Builder} methods describe the components.
 *
 * @throws InvalidSettingException naming the builder method of a value that cannot work
 */
public record PingbackSettings(String url, String secret, boolean register) {

  public static final boolean DEFAULT_REGISTER = true;

  /** The shortest secret accepted. */
  public static final int MIN_SECRET_CHARS = 32;

  /**
   * Refuses a URL and secret that cannot work: a URL needs the secret; the secret has at least
   * {@link #MIN_SECRET_CHARS} characters; the URL is absolute http(s) without query or fragment,
   * and https unless it names this host.
   */
  public PingbackSettings {
    require(
        url == null || secret != null,
        "{PingbackSettings.secret(String)} is required with {PingbackSettings.url(String)}");
    require(
        secret == null || secret.length() >= MIN_SECRET_CHARS,
        "{PingbackSettings.secret(String)} must be at least " + MIN_SECRET_CHARS + " characters");
    require(
        url == null
            || (url.startsWith("http://") || url.startsWith("https://"))
                && !url.contains("?")
                && !url.contains("#"),
        "{PingbackSettings.url(String)} must be an absolute http(s) URL without query or"
            + " fragment");
    require(
        !clearTextOffLoopback(url),
        "{PingbackSettings.url(String)} must be https unless it names this host (localhost, a"
            + " literal 127.x.x.x address or [::1]): answers and signed URLs would travel in clear"
            + " text");
  }

  /** None: no secret, no URL; the node neither receives nor asks for pushes. */
  public static PingbackSettings none() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these settings. */
  public Builder toBuilder() {
    return new Builder().url(url).secret(secret).register(register);
  }

  /** Whether this node accepts pushes (it has the secret). */
  public boolean receives() {
    return secret != null;
  }

  /** Whether a worker asks the provider for pushes (it has the URL). */
  public boolean asksForPushes() {
    return url != null;
  }

  /** Never the secret. */
  @Override
  public String toString() {
    return "PingbackSettings{url=%s, secret=%s, register=%s}"
        .formatted(url, secret == null ? "none" : "***", register);
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

  /** Every value of a {@link PingbackSettings}, each starting at its default. */
  public static final class Builder {

    private String url = null;
    private String secret = null;
    private boolean register = DEFAULT_REGISTER;

    private Builder() {}

    /** An app node's {@code /captchaai/pingback}, to push answers to; needs the secret; none. */
    public Builder url(String url) {
      this.url = url == null || url.isBlank() ? null : url;
      return this;
    }

    /** The fleet's key of the signatures, at least 32 characters, the same on every node; none. */
    public Builder secret(String secret) {
      this.secret = secret == null || secret.isEmpty() ? null : secret;
      return this;
    }

    /**
     * Whether a worker with a URL registers its host with the provider at startup ({@code
     * add_pingback}, then {@code get_pingback}); answers are only logged; true.
     */
    public Builder register(boolean register) {
      this.register = register;
      return this;
    }

    /**
     * @throws InvalidSettingException naming the builder method of a value that cannot work
     */
    public PingbackSettings build() {
      return new PingbackSettings(url, secret, register);
    }
  }
}
