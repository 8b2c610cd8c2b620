package com.captchajobs.simulator;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine;

/**
 * The one duration syntax of the project's command lines (the simulator's and the bench's): {@code
 * 500ms}, {@code 2s} or {@code 1.5s}, {@code 5m}, {@code 1h}, a bare number of seconds ({@code
 * 1.5}), or ISO-8601 ({@code PT2S}). As a picocli converter, a bad value is reported with the
 * option's name.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

  @Override
  public Duration convert(String value) {
    try {
      return parse(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }

  /**
   * Parses one of the forms above.
   *
   * @throws IllegalArgumentException naming the value when it is none of them
   */
  public static Duration parse(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    try {
      if (v.startsWith("p")) {
        return Duration.parse(v.toUpperCase(Locale.ROOT));
      }
      if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      }
      if (v.endsWith("s")) {
        return Duration.ofMillis(
            Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
      }
      if (v.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      if (v.endsWith("h")) {
        return Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(
          "'" + value + "' is not a duration (use 500ms, 2s, 5m, 1h or PT2S)");
    }
  }

  /** The short form of a duration: {@code 20s} for whole seconds, else {@code 1500ms}. */
  public static String format(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }
}
