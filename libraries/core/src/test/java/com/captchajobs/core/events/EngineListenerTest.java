package com.captchajobs.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The events with a provider reach a listener written against the forms without one. */
@Tag("unit")
class EngineListenerTest {

  @Test
  void aListenerOverridingOnlyTheFormsWithoutAProviderStillHearsEveryEventTheEngineSends() {
    List<String> heard = new ArrayList<>();
    EngineListener older =
        new EngineListener() {
          @Override
          public void submitted(CaptchaType type, boolean resumed) {
            heard.add("submitted " + type + " " + resumed);
          }

          @Override
          public void solved(CaptchaType type, Duration latency, int polls) {
            heard.add("solved " + type + " " + latency.toSeconds() + " " + polls);
          }

          @Override
          public void answered(CaptchaType type, boolean pushed) {
            heard.add("answered " + type + " " + pushed);
          }

          @Override
          public void polled(CaptchaType type, Duration lateness) {
            heard.add("polled " + type + " " + lateness.toMillis());
          }
        };

    older.submitted("backup", CaptchaType.TURNSTILE, false);
    older.polled("backup", CaptchaType.TURNSTILE, Duration.ofMillis(7));
    older.solved("backup", CaptchaType.TURNSTILE, Duration.ofSeconds(12), 3);
    older.answered("backup", CaptchaType.TURNSTILE, true);

    assertThat(heard)
        .containsExactly(
            "submitted TURNSTILE false",
            "polled TURNSTILE 7",
            "solved TURNSTILE 12 3",
            "answered TURNSTILE true");
  }
}
