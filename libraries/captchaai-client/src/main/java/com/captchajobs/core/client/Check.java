package com.captchajobs.core.client;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;

/** Field checks shared by the task records; every message starts with the field name. */
final class Check {

  /** Longest accepted value, except for {@code body} and {@code cookies}. */
  static final int MAX_LENGTH = 4096;

  private Check() {}

  static String required(String field, String value) {
    return optional(field, requiredUnbounded(field, value));
  }

  /** For required fields without a length cap ({@code body}). */
  static String requiredUnbounded(String field, String value) {
    if (value == null) {
      throw new InvalidTaskException(field, "is required");
    }
    return optionalUnbounded(field, value);
  }

  static String optional(String field, String value) {
    optionalUnbounded(field, value);
    if (value != null && value.length() > MAX_LENGTH) {
      throw new InvalidTaskException(field, "must be at most " + MAX_LENGTH + " characters");
    }
    return value;
  }

  /** For fields without a length cap; present values must still say something. */
  static String optionalUnbounded(String field, String value) {
    if (value != null && value.isBlank()) {
      throw new InvalidTaskException(field, "must not be blank");
    }
    return value;
  }

  /** The fields of every type that loads a page in a browser ({@link TaskFields#BROWSER}). */
  static void browser(String userAgent, String cookies) {
    optional("userAgent", userAgent);
    optionalUnbounded("cookies", cookies);
  }

  static String pageUrl(String value) {
    required("pageUrl", value);
    try {
      URI uri = new URI(value);
      String scheme = uri.getScheme();
      if (("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))
          && uri.getHost() != null
          && !uri.getHost().isEmpty()) {
        return value;
      }
    } catch (URISyntaxException e) {
      // falls through to the uniform message
    }
    throw new InvalidTaskException("pageUrl", "must be an absolute http(s) URL");
  }

  static BigDecimal range(String field, BigDecimal value, String min, String max) {
    if (value != null
        && (value.compareTo(new BigDecimal(min)) < 0 || value.compareTo(new BigDecimal(max)) > 0)) {
      throw new InvalidTaskException(field, "must be between " + min + " and " + max);
    }
    return value;
  }

  static Integer range(String field, Integer value, int min, int max) {
    if (value != null && (value < min || value > max)) {
      throw new InvalidTaskException(field, "must be between " + min + " and " + max);
    }
    return value;
  }
}
