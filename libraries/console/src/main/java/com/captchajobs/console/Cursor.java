package com.captchajobs.console;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a keyset page ends: the last row's {@code created_at} (to the microsecond, PostgreSQL's
 * precision) and id. Written in links as URL-safe base64 of {@code <epoch micros>.<uuid>}. A cursor
 * that does not parse, or names an instant outside the years 1 to 9999 (PostgreSQL would fail the
 * statement), is refused with {@link BadCursorException}: the console answers 400.
 */
public record Cursor(Instant createdAt, UUID id) {

  /** The link form. */
  public String encode() {
    long micros =
        Math.addExact(
            Math.multiplyExact(createdAt.getEpochSecond(), 1_000_000L),
            createdAt.getNano() / 1_000);
    String plain = micros + "." + id;
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
  }

  /** A cursor parameter that is not one this console wrote. */
  public static final class BadCursorException extends IllegalArgumentException {
    BadCursorException() {
      super("not a cursor of this console");
    }
  }

  private static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
  private static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999Z");

  /**
   * The cursor of a link, empty when absent.
   *
   * @throws BadCursorException when it is malformed or out of range
   */
  public static Optional<Cursor> decode(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    if (text.length() > 100) {
      throw new BadCursorException();
    }
    try {
      String plain =
          new String(Base64.getUrlDecoder().decode(text.strip()), StandardCharsets.US_ASCII);
      int dot = plain.indexOf('.');
      if (dot < 1) {
        throw new BadCursorException();
      }
      long micros = Long.parseLong(plain.substring(0, dot));
      UUID id = UUID.fromString(plain.substring(dot + 1));
      Instant at =
          Instant.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
      if (at.isBefore(FIRST) || at.isAfter(LAST)) {
        throw new BadCursorException();
      }
      return Optional.of(new Cursor(at, id));
    } catch (IllegalArgumentException | ArithmeticException | java.time.DateTimeException e) {
      throw new BadCursorException();
    }
  }
}
