package com.captchajobs.core.client;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads our field names into typed values for {@link CaptchaTask#of}, and writes task values back
 * out as {@code params()} (sorted) or in.php {@code formFields()} (in request order).
 */
final class TaskFields {

  /** Accepted by every type that loads a page in a browser. */
  static final Set<String> BROWSER = Set.of("userAgent", "cookies", "proxy", "proxyType");

  private final Map<String, String> params;

  /** {@link #BROWSER} plus the given names. */
  static Set<String> browserAnd(String... names) {
    Set<String> all = new HashSet<>(BROWSER);
    all.addAll(List.of(names));
    return Set.copyOf(all);
  }

  private TaskFields(Map<String, String> params) {
    this.params = params;
  }

  /** Rejects the first field (in name order) that {@code type} does not know. */
  static TaskFields read(CaptchaType type, Map<String, String> params, Set<String> known) {
    // Not containsKey(null): immutable and sorted maps throw on it.
    List<String> names = new ArrayList<>(params.keySet());
    names.sort(Comparator.nullsFirst(Comparator.naturalOrder()));
    for (String name : names) {
      if (name == null) {
        throw new InvalidTaskException("(null)", "is not a field name");
      }
      if (!known.contains(name)) {
        throw new InvalidTaskException(name, "is not a field of " + type);
      }
    }
    return new TaskFields(params);
  }

  String string(String name) {
    return params.get(name);
  }

  Boolean bool(String name) {
    String value = params.get(name);
    if (value == null) {
      return null;
    }
    if (value.equals("true") || value.equals("false")) {
      return Boolean.valueOf(value);
    }
    throw new InvalidTaskException(name, "must be true or false");
  }

  BigDecimal decimal(String name) {
    String value = params.get(name);
    try {
      return value == null ? null : new BigDecimal(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidTaskException(name, "must be a decimal number");
    }
  }

  Integer integer(String name) {
    String value = params.get(name);
    try {
      return value == null ? null : Integer.valueOf(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidTaskException(name, "must be an integer");
    }
  }

  /** The proxy, or null; proxyType alone is an error, a proxy alone is HTTP. */
  Proxy proxy() {
    String address = params.get("proxy");
    String type = params.get("proxyType");
    if (address == null) {
      if (type != null) {
        throw new InvalidTaskException("proxyType", "requires proxy");
      }
      return null;
    }
    return new Proxy(address, type == null ? Proxy.Type.HTTP : Proxy.parseType(type));
  }

  /** A map writer that skips null values. */
  static final class Out {
    private final Map<String, String> map;

    private Out(Map<String, String> map) {
      this.map = map;
    }

    /** For {@code params()}: sorted by name. */
    static Out params() {
      return new Out(new TreeMap<>());
    }

    /** For {@code formFields()}: in the order the fields are added. */
    static Out form() {
      return new Out(new LinkedHashMap<>());
    }

    Out put(String name, Object value) {
      if (value instanceof BigDecimal decimal) {
        map.put(name, decimal.toPlainString());
      } else if (value != null) {
        map.put(name, value.toString());
      }
      return this;
    }

    /** in.php flags are 1/0. */
    Out flag(String name, Boolean value) {
      return put(name, value == null ? null : value ? "1" : "0");
    }

    /** Our userAgent, cookies, proxy and proxyType fields. */
    Out browserParams(String userAgent, String cookies, Proxy proxy) {
      put("userAgent", userAgent).put("cookies", cookies);
      if (proxy != null) {
        put("proxy", proxy.address()).put("proxyType", proxy.type());
      }
      return this;
    }

    /** The in.php names of the same fields. */
    Out browserForm(String userAgent, String cookies, Proxy proxy) {
      put("userAgent", userAgent).put("cookies", cookies);
      if (proxy != null) {
        put("proxy", proxy.address()).put("proxytype", proxy.type());
      }
      return this;
    }

    Map<String, String> toMap() {
      return Collections.unmodifiableMap(map);
    }
  }
}
