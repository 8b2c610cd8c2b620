package com.captchajobs.bench;

import java.time.Duration;

/** {@code 0}, {@code 500ms}, {@code 20s}, {@code 15m}, {@code 1h}, or an ISO-8601 duration. */
final class Durations {

  private Durations() {}

  static Duration parse(String text) {
    String s = text.trim().toLowerCase();
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    if (s.startsWith("p")) {
      return Duration.parse(text.trim());
    }
    if (s.endsWith("ms")) {
      return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
    }
    long n = Long.parseLong(s.substring(0, s.length() - 1));
    return switch (s.charAt(s.length() - 1)) {
      case 's' -> Duration.ofSeconds(n);
      case 'm' -> Duration.ofMinutes(n);
      case 'h' -> Duration.ofHours(n);
      default ->
          throw new IllegalArgumentException(
              "not a duration: '" + text + "' (use 500ms, 20s, 15m)");
    };
  }

  static String format(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }
}
