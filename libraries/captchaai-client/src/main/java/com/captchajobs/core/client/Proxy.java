package com.captchajobs.core.client;

/**
 * A proxy the provider's workers load the page through. Its address may hold credentials, so {@link
 * #toString()} hides the password.
 *
 * @param address {@code host:port} or {@code user:pass@host:port}
 * @param type the proxy protocol; {@link Type#HTTP} when the task fields leave it out
 */
public record Proxy(String address, Type type) {

  /** The in.php {@code proxytype} values. */
  public enum Type {
    HTTP,
    HTTPS,
    SOCKS4,
    SOCKS5
  }

  /** Validates the address shape and port; messages name the task fields proxy and proxyType. */
  public Proxy {
    Check.required("proxy", address);
    if (type == null) {
      throw new InvalidTaskException("proxyType", "is required");
    }
    checkAddress(address);
  }

  /** An HTTP proxy. */
  public static Proxy http(String address) {
    return new Proxy(address, Type.HTTP);
  }

  /** Parses a proxyType field value, e.g. "SOCKS5"; the message names the field. */
  public static Type parseType(String value) {
    Check.required("proxyType", value);
    try {
      return Type.valueOf(value);
    } catch (IllegalArgumentException e) {
      throw new InvalidTaskException("proxyType", "must be one of HTTP, HTTPS, SOCKS4, SOCKS5");
    }
  }

  private static void checkAddress(String address) {
    int at = address.lastIndexOf('@');
    if (at >= 0) {
      String credentials = address.substring(0, at);
      int colon = credentials.indexOf(':');
      if (colon <= 0 || colon == credentials.length() - 1) {
        throw invalidAddress();
      }
    }
    String hostPort = address.substring(at + 1);
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0 || hostPort.chars().anyMatch(c -> Character.isWhitespace(c) || c == '/')) {
      throw invalidAddress();
    }
    try {
      int port = Integer.parseInt(hostPort.substring(colon + 1));
      if (port < 1 || port > 65535) {
        throw invalidAddress();
      }
    } catch (NumberFormatException e) {
      throw invalidAddress();
    }
  }

  private static InvalidTaskException invalidAddress() {
    return new InvalidTaskException("proxy", "must be host:port or user:pass@host:port");
  }

  @Override
  public String toString() {
    return "Proxy[" + type + " " + redacted(address) + "]";
  }

  /** The address with {@code ***} for its password, if it has one ({@code user:***@host:port}). */
  static String redacted(String address) {
    int at = address.lastIndexOf('@');
    int colon = address.indexOf(':');
    return at < 0 || colon > at
        ? address
        : address.substring(0, colon) + ":***" + address.substring(at);
  }
}
