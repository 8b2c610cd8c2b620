package com.captchajobs.core.internal.egress;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether an address is public, from two tables: the IPv4 and IPv6 ranges no webhook may reach
 * ({@link #V4_RANGES}, {@link #V6_RANGES}), and the IPv6 forms that embed an IPv4 address ({@link
 * #EMBEDDINGS}). An IPv6 address in one of the IPv6 ranges is refused; one of an embedding form is
 * then judged by the IPv4 address(es) it embeds, refused when any of them is; any other IPv6
 * address is public. No name is resolved here.
 */
final class AddressClassifier {

  /** A range no webhook may reach, as CIDR text, with the reason a refusal names. */
  record Range(String cidr, String why, byte[] network, int bits) {

    static Range of(String cidr, String why) {
      int slash = cidr.indexOf('/');
      return new Range(
          cidr,
          why,
          literal(cidr.substring(0, slash)),
          Integer.parseInt(cidr.substring(slash + 1)));
    }

    boolean contains(byte[] address) {
      return address.length == network.length && matches(address, network, bits);
    }
  }

  /**
   * An IPv6 form that carries IPv4 addresses: the addresses that match {@code prefix}/{@code bits}
   * (or, for an interface-id form, whose bytes 8 to 11 match {@code prefix}'s under {@code mask})
   * embed an IPv4 address at each of {@code offsets}, bit-inverted where {@code inverted}. A form
   * with no offsets (a local translator whose prefix length is its own) is refused whatever it
   * embeds.
   */
  record Embedding(
      String form, byte[] prefix, int bits, byte[] mask, int[] offsets, boolean inverted) {

    static Embedding prefix(String form, String cidr, int... offsets) {
      Range range = Range.of(cidr, form);
      return new Embedding(form, range.network(), range.bits(), null, offsets, false);
    }

    boolean matches(byte[] a) {
      if (mask == null) {
        return AddressClassifier.matches(a, prefix, bits);
      }
      for (int i = 8; i < 12; i++) {
        if ((a[i] & mask[i]) != (prefix[i] & mask[i])) {
          return false;
        }
      }
      return true;
    }
  }

  static final List<Range> V4_RANGES =
      List.of(
          Range.of("0.0.0.0/8", "this network"),
          Range.of("10.0.0.0/8", "private"),
          Range.of("100.64.0.0/10", "carrier-grade NAT"),
          Range.of("127.0.0.0/8", "loopback"),
          Range.of("169.254.0.0/16", "link-local (cloud metadata)"),
          Range.of("172.16.0.0/12", "private"),
          Range.of("192.0.0.0/24", "IETF protocol assignments"),
          Range.of("192.0.2.0/24", "documentation"),
          Range.of("192.88.99.0/24", "6to4 relay anycast"),
          Range.of("192.168.0.0/16", "private"),
          Range.of("198.18.0.0/15", "benchmarking"),
          Range.of("198.51.100.0/24", "documentation"),
          Range.of("203.0.113.0/24", "documentation"),
          Range.of("224.0.0.0/4", "multicast"),
          Range.of("240.0.0.0/4", "reserved and broadcast"));

  static final List<Range> V6_RANGES =
      List.of(
          Range.of("::/128", "unspecified"),
          Range.of("::1/128", "loopback"),
          Range.of("100::/64", "discard-only"),
          Range.of("2001:db8::/32", "documentation"),
          Range.of("fc00::/7", "unique-local"),
          Range.of("fe80::/10", "link-local"),
          Range.of("fec0::/10", "site-local"),
          Range.of("ff00::/8", "multicast"));

  static final List<Embedding> EMBEDDINGS =
      List.of(
          Embedding.prefix("IPv4-mapped", "::ffff:0:0/96", 12),
          Embedding.prefix("IPv4-translated", "::ffff:0:0:0/96", 12),
          Embedding.prefix("IPv4-compatible", "::/96", 12),
          Embedding.prefix("NAT64 well-known", "64:ff9b::/96", 12),
          Embedding.prefix("NAT64 local-use", "64:ff9b:1::/48"),
          Embedding.prefix("6to4", "2002::/16", 2),
          new Embedding("Teredo", literal("2001::"), 32, null, new int[] {4, 12}, true),
          new Embedding(
              "ISATAP",
              literal("::5efe:0:0"),
              0,
              literal("0:0:0:0:fcff:ffff::"),
              new int[] {12},
              false));

  private AddressClassifier() {}

  /**
   * Why an address is not public, or empty when a webhook may reach it.
   *
   * @param a an IPv4 or IPv6 address's bytes
   * @return the reason, naming the range and, for an embedding form, the form and the IPv4 address
   */
  static Optional<String> whyNotPublic(byte[] a) {
    List<Range> ranges = a.length == 4 ? V4_RANGES : V6_RANGES;
    Optional<String> range = ranges.stream().filter(r -> r.contains(a)).findFirst().map(Range::why);
    if (range.isPresent() || a.length == 4) {
      return range;
    }
    for (Embedding e : EMBEDDINGS) {
      if (!e.matches(a)) {
        continue;
      }
      if (e.offsets().length == 0) {
        return Optional.of(e.form() + " (a local translator)");
      }
      for (byte[] v4 : embedded(a, e)) {
        Optional<String> why = whyNotPublic(v4);
        if (why.isPresent()) {
          return Optional.of(why.get() + " " + text(v4) + " inside " + e.form());
        }
      }
      return Optional.empty();
    }
    return Optional.empty();
  }

  private static List<byte[]> embedded(byte[] a, Embedding e) {
    List<byte[]> out = new ArrayList<>();
    for (int offset : e.offsets()) {
      byte[] v4 = new byte[4];
      // Teredo's server sits plain in bits 32-63; only its client (the last 32 bits) is inverted
      boolean invert = e.inverted() && offset == 12;
      for (int i = 0; i < 4; i++) {
        v4[i] = (byte) (a[offset + i] ^ (invert ? 0xff : 0));
      }
      out.add(v4);
    }
    return out;
  }

  private static boolean matches(byte[] a, byte[] network, int bits) {
    if (a.length != network.length) {
      return false;
    }
    for (int i = 0; i < bits / 8; i++) {
      if (a[i] != network[i]) {
        return false;
      }
    }
    int rest = bits % 8;
    if (rest == 0) {
      return true;
    }
    int mask = (0xff << (8 - rest)) & 0xff;
    return (a[bits / 8] & mask) == (network[bits / 8] & mask);
  }

  private static String text(byte[] v4) {
    return (v4[0] & 0xff) + "." + (v4[1] & 0xff) + "." + (v4[2] & 0xff) + "." + (v4[3] & 0xff);
  }

  /** The bytes of an address literal (never a name: the tables hold literals only). */
  static byte[] literal(String text) {
    if (!text.matches("[0-9a-fA-F:.]+")) {
      throw new IllegalArgumentException("not an address literal: " + text);
    }
    try {
      InetAddress a = InetAddress.getByName(text);
      byte[] b = a.getAddress();
      if (a instanceof Inet4Address && text.contains(":")) {
        // Java reads ::ffff:a.b.c.d as IPv4; the table means the IPv6 form
        byte[] v6 = new byte[16];
        v6[10] = (byte) 0xff;
        v6[11] = (byte) 0xff;
        System.arraycopy(b, 0, v6, 12, 4);
        return v6;
      }
      return b;
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an address literal: " + text, e);
    }
  }
}
