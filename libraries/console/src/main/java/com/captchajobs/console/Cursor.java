package com.captchajobs.console;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a keyset page ends: the last row's {@code created_at} (to the microsecond, PostgreSQL's
 * precision) and id. Written in links as URL-safe base64 of {@code <epoch micros>.<uuid>}; a cursor
 * that does not parse is no cursor (the first page).
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

  /** The cursor of a link, empty when absent or malformed. */
  public static Optional<Cursor> decode(String text) {
    if (text == null || text.isBlank() || text.length() > 100) {
      return Optional.empty();
    }
    try {
      String plain =
          new String(Base64.getUrlDecoder().decode(text.strip()), StandardCharsets.US_ASCII);
      int dot = plain.indexOf('.');
      if (dot < 1) {
        return Optional.empty();
      }
      long micros = Long.parseLong(plain.substring(0, dot));
      UUID id = UUID.fromString(plain.substring(dot + 1));
      Instant at =
          Instant.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
      return Optional.of(new Cursor(at, id));
    } catch (IllegalArgumentException | ArithmeticException e) {
      return Optional.empty();
    }
  }
}
