package com.captchajobs.core.internal.egress;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import okhttp3.Dns;
import okhttp3.HttpUrl;

/**
 * Where a webhook may go, decided at delivery time: the callback URL's host is resolved now and
 * every address must be public (not loopback, private, link-local with the cloud metadata address,
 * unique-local, carrier-grade NAT, multicast or unspecified, nor an IPv6 address that embeds such
 * an IPv4 address: mapped, compatible, NAT64, 6to4, Teredo; see {@link #embeddedV4}), and the
 * scheme must be https. An origin on the allow list ({@code captchajobs.webhook.allowed-hosts}) may
 * resolve to any address; each entry pins a scheme and a port: {@code host} is https on 443, {@code
 * host:port} https on that port, {@code http://host:port} plain http on that port. The same host on
 * another port or scheme gets no exemption. The addresses checked are the ones connected to: {@link
 * #pinned} hands them to OkHttp's {@link Dns}, so a name that resolves differently a moment later
 * (DNS rebinding) changes nothing.
 */
public final class WebhookEgress {

  /** A callback URL that no delivery may reach; retrying cannot help. */
  public static final class RefusedException extends RuntimeException {
    RefusedException(String message) {
      super(message);
    }
  }

  /** One entry of the allow list: a scheme, a host (lower case, no brackets) and a port. */
  public record Origin(String scheme, String host, int port) {

    private static final String KEY = "captchajobs.webhook.allowed-hosts";

    /**
     * Reads {@code host}, {@code host:port}, {@code https://host[:port]} or {@code
     * http://host[:port]}; an IPv6 literal in brackets when it has a port.
     *
     * @throws IllegalArgumentException naming the key and the entry
     */
    public static Origin parse(String entry) {
      String e = entry.strip().toLowerCase(Locale.ROOT);
      String scheme = "https";
      int defaultPort = 443;
      if (e.startsWith("http://")) {
        scheme = "http";
        defaultPort = 80;
        e = e.substring("http://".length());
      } else if (e.startsWith("https://")) {
        e = e.substring("https://".length());
      } else if (e.contains("://")) {
        throw bad(entry, "only http:// and https:// are allowed");
      }
      if (e.endsWith("/")) {
        e = e.substring(0, e.length() - 1);
      }
      String host = e;
      int port = defaultPort;
      if (e.startsWith("[")) {
        int close = e.indexOf(']');
        if (close < 0) {
          throw bad(entry, "an IPv6 address needs its closing bracket");
        }
        host = e.substring(1, close);
        String rest = e.substring(close + 1);
        if (!rest.isEmpty()) {
          port = port(entry, rest.startsWith(":") ? rest.substring(1) : rest);
        }
      } else if (e.indexOf(':') >= 0 && e.indexOf(':') == e.lastIndexOf(':')) {
        host = e.substring(0, e.indexOf(':'));
        port = port(entry, e.substring(e.indexOf(':') + 1));
      }
      if (host.isEmpty() || host.contains("/") || host.contains("@")) {
        throw bad(entry, "expected host, host:port or http://host:port");
      }
      return new Origin(scheme, host, port);
    }

    private static int port(String entry, String text) {
      try {
        int port = Integer.parseInt(text);
        if (port >= 1 && port <= 65535) {
          return port;
        }
      } catch (NumberFormatException ignored) {
        // reported below
      }
      throw bad(entry, "the port must be a number from 1 to 65535");
    }

    private static IllegalArgumentException bad(String entry, String why) {
      return new IllegalArgumentException(KEY + ": '" + entry + "' is not an origin (" + why + ")");
    }

    @Override
    public String toString() {
      return scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
  }

  private final Set<Origin> allowed;
  private final Dns resolver;

  /**
   * @param allowedHosts entries of {@code captchajobs.webhook.allowed-hosts} ({@link Origin#parse})
   * @param resolver the name resolution used at delivery time ({@link Dns#SYSTEM} in production)
   * @throws IllegalArgumentException naming the key when an entry is not an origin
   */
  public WebhookEgress(Set<String> allowedHosts, Dns resolver) {
    this.allowed =
        allowedHosts.stream()
            .filter(h -> !h.isBlank())
            .map(Origin::parse)
            .collect(Collectors.toUnmodifiableSet());
    this.resolver = resolver;
  }

  /**
   * The addresses a delivery to this URL may connect to.
   *
   * @throws RefusedException naming the host and the reason
   * @throws UnknownHostException when the name does not resolve (worth a retry)
   */
  public List<InetAddress> check(HttpUrl url) throws UnknownHostException {
    String host = stripBrackets(url.host().toLowerCase(Locale.ROOT));
    Origin origin = new Origin(url.scheme(), host, url.port());
    boolean allowed = this.allowed.contains(origin);
    if (!allowed && !url.isHttps()) {
      throw new RefusedException(
          "webhook to "
              + origin
              + " refused: https is required (or list http://host:port in"
              + " captchajobs.webhook.allowed-hosts)");
    }
    List<InetAddress> addresses = resolver.lookup(url.host());
    if (!allowed) {
      for (InetAddress a : addresses) {
        if (!isPublic(a)) {
          throw new RefusedException(
              "webhook to "
                  + host
                  + " refused: it resolves to the non-public address "
                  + a.getHostAddress()
                  + " (list its origin "
                  + origin
                  + " in captchajobs.webhook.allowed-hosts to allow it)");
        }
      }
    }
    return List.copyOf(addresses);
  }

  /** A resolver that answers only the checked addresses, for only the checked host. */
  public static Dns pinned(HttpUrl url, List<InetAddress> addresses) {
    return hostname -> {
      if (!hostname.equalsIgnoreCase(url.host())) {
        throw new UnknownHostException("not the checked webhook host: " + hostname);
      }
      return addresses;
    };
  }

  /** False for every address a webhook must not reach unless allowed. */
  static boolean isPublic(InetAddress a) {
    if (a.isAnyLocalAddress()
        || a.isLoopbackAddress()
        || a.isLinkLocalAddress()
        || a.isSiteLocalAddress()
        || a.isMulticastAddress()) {
      return false;
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet4Address) {
      int first = b[0] & 0xff;
      int second = b[1] & 0xff;
      return first != 0 // this network
          && !(first == 100 && second >= 64 && second <= 127) // carrier-grade NAT
          && !(first == 192 && second == 0 && (b[2] & 0xff) == 0) // IETF protocol assignments
          && !(first == 198 && (second == 18 || second == 19)) // benchmarking
          && first < 240; // reserved and broadcast
    }
    if (a instanceof Inet6Address) {
      int first = b[0] & 0xff;
      if ((first & 0xfe) == 0xfc) {
        return false; // unique-local fc00::/7
      }
      if (isLocalUseNat64(b)) {
        return false; // 64:ff9b:1::/48: a local translator, wherever the IPv4 sits in it
      }
      for (byte[] v4 : embeddedV4(b)) {
        if (!isPublic(v4(v4))) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * The IPv4 addresses an IPv6 address leads to: IPv4-mapped and IPv4-compatible ({@code
   * ::ffff:a.b.c.d}, {@code ::a.b.c.d}), NAT64's well-known prefix ({@code 64:ff9b::/96}), 6to4
   * ({@code 2002:AABB:CCDD::/16}) and Teredo ({@code 2001:0:SSSS:SSSS::/32}: the server in bits
   * 32-63, the client in the last 32 bits inverted). Each must be as public as the IPv4 itself.
   */
  static List<byte[]> embeddedV4(byte[] b) {
    if (isMappedOrCompatibleV4(b) || isWellKnownNat64(b)) {
      return List.of(slice(b, 12, 0));
    }
    if (b[0] == 0x20 && b[1] == 0x02) {
      return List.of(slice(b, 2, 0));
    }
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) {
      return List.of(slice(b, 4, 0), slice(b, 12, 0xff));
    }
    return List.of();
  }

  private static boolean isWellKnownNat64(byte[] b) {
    if (b[0] != 0 || b[1] != 0x64 || b[2] != (byte) 0xff || b[3] != (byte) 0x9b) {
      return false;
    }
    for (int i = 4; i < 12; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isLocalUseNat64(byte[] b) {
    return b[0] == 0
        && b[1] == 0x64
        && b[2] == (byte) 0xff
        && b[3] == (byte) 0x9b
        && b[4] == 0
        && b[5] == 1;
  }

  private static byte[] slice(byte[] b, int from, int xor) {
    byte[] v4 = new byte[4];
    for (int i = 0; i < 4; i++) {
      v4[i] = (byte) (b[from + i] ^ xor);
    }
    return v4;
  }

  private static InetAddress v4(byte[] v4) {
    try {
      return InetAddress.getByAddress(v4);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("four bytes are an IPv4 address", e);
    }
  }

  private static boolean isMappedOrCompatibleV4(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return (b[10] == (byte) 0xff && b[11] == (byte) 0xff) || (b[10] == 0 && b[11] == 0);
  }

  private static String stripBrackets(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }
}
