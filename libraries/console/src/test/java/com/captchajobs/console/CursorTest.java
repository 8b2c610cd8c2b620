package com.captchajobs.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class CursorTest {

  @Test
  void aCursorSurvivesItsLinkFormToTheMicrosecond() {
    Cursor c =
        new Cursor(
            Instant.parse("2026-12-04T20:15:23.123456Z"),
            UUID.fromString("28661783-bef7-489e-8176-b0e92c703c4f"));

    String link = c.encode();

    assertThat(link).matches("[A-Za-z0-9_-]+");
    assertThat(Cursor.decode(link)).contains(c);
  }

  @Test
  void anInstantBeforeTheEpochIsKeptToo() {
    Cursor c = new Cursor(Instant.parse("1969-12-31T23:59:59.999999Z"), UUID.randomUUID());

    assertThat(Cursor.decode(c.encode())).contains(c);
  }

  @Test
  void aMissingCursorMeansTheFirstPage() {
    assertThat(Cursor.decode(null)).isEmpty();
    assertThat(Cursor.decode("")).isEmpty();
  }

  @Test
  void aMalformedCursorIsRefused() {
    for (String bad :
        new String[] {"not base64 !", "MTIz" /* no id */, "eC55" /* x.y */, "A".repeat(200)}) {
      assertThatThrownBy(() -> Cursor.decode(bad))
          .as(bad)
          .isInstanceOf(Cursor.BadCursorException.class);
    }
  }

  @Test
  void aCursorAtAnInstantPostgresqlCannotHoldIsRefused() {
    for (long micros : new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 253_402_300_800_000_000L}) {
      String link =
          Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString(
                  (micros + "." + UUID.randomUUID()).getBytes(StandardCharsets.US_ASCII));
      assertThatThrownBy(() -> Cursor.decode(link))
          .as(String.valueOf(micros))
          .isInstanceOf(Cursor.BadCursorException.class);
    }
  }
}
