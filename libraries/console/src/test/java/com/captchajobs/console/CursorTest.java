package com.captchajobs.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
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
  void aMissingOrMalformedCursorMeansTheFirstPage() {
    assertThat(Cursor.decode(null)).isEmpty();
    assertThat(Cursor.decode("")).isEmpty();
    assertThat(Cursor.decode("not base64 !")).isEmpty();
    assertThat(Cursor.decode("MTIz")).as("no id").isEmpty();
    assertThat(Cursor.decode("eC55")).as("x.y").isEmpty();
    assertThat(Cursor.decode("A".repeat(200))).isEmpty();
  }
}
