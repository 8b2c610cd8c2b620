package com.captchajobs.core.internal.egress;

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
 * unique-local, carrier-grade NAT, multicast, unspecified or the 6to4 relay anycast, nor an IPv6
 * address that embeds such an IPv4 address: mapped, compatible, translated, NAT64, 6to4, Teredo,
 * ISATAP; the tables are {@link AddressClassifier}'s), and the scheme must be https. An origin on
 * the allow list ({@code captchajobs.webhook.allowed-hosts}) may resolve to any address; each entry
 * pins a scheme and a port: {@code host} is https on 443, {@code host:port} https on that port,
 * {@code http://host:port} plain http on that port. The same host on another port or scheme gets no
 * exemption. The addresses checked are the ones connected to: {@link #pinned} hands them to
 * OkHttp's {@link Dns}, so a name that resolves differently a moment later (DNS rebinding) changes
 * nothing.
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
          "webhook to %s refused: https is required (or list http://host:port in %s)"
              .formatted(origin, Origin.KEY));
    }
    List<InetAddress> addresses = resolver.lookup(url.host());
    if (!allowed) {
      for (InetAddress a : addresses) {
        if (!why(a).isEmpty()) {
          throw new RefusedException(
              ("webhook to %s refused: it resolves to the non-public address %s, %s (list its"
                      + " origin %s in %s to allow it)")
                  .formatted(host, a.getHostAddress(), why(a), origin, Origin.KEY));
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

  /** Why a webhook must not reach the address unless allowed ({@link AddressClassifier}), or "". */
  private static String why(InetAddress a) {
    return AddressClassifier.whyNotPublic(a.getAddress()).orElse("");
  }

  private static String stripBrackets(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }
}
