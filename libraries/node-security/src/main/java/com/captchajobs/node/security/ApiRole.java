package com.captchajobs.node.security;

import java.util.Locale;

/** What a named API client may do: call the REST API, operate the node, or both. */
public enum ApiRole {
  /** Enqueues, reads, claims and streams its own solves on the API port. */
  CLIENT,
  /** Calls the management port: health details, metrics, Prometheus, closing the breaker. */
  OPERATOR;

  /** The Spring Security authority of the role. */
  public String authority() {
    return "ROLE_" + name();
  }

  /** {@code client} or {@code operator}, case-insensitive; null when it is neither. */
  static ApiRole parse(String value) {
    if (value == null) {
      return null;
    }
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "client" -> CLIENT;
      case "operator" -> OPERATOR;
      default -> null;
    };
  }
}
