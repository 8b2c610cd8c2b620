package com.captchajobs.core.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaType;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SolveSettingsTest {

  @Test
  void theDefaultsAreTheConstants() {
    SolveSettings defaults = SolveSettings.defaults();

    assertThat(defaults.threads()).isEqualTo(SolveSettings.DEFAULT_THREADS);
    assertThat(defaults.pollInterval()).isEqualTo(SolveSettings.DEFAULT_POLL_INTERVAL);
    assertThat(defaults.maxBackoff()).isEqualTo(SolveSettings.DEFAULT_MAX_BACKOFF);
    assertThat(defaults.firstPollWait(CaptchaType.TURNSTILE)).isEqualTo(Duration.ofMillis(4200));
    assertThat(defaults.tokenTtl()).isEqualTo(SolveSettings.defaultTokenTtl());
  }

  @Test
  void aBuilderFromSettingsBuildsTheSameSettings() {
    SolveSettings settings =
        SolveSettings.builder()
            .threads(9)
            .firstPollWait(CaptchaType.IMAGE, Duration.ofSeconds(2))
            .tokenTtl(CaptchaType.TURNSTILE, Duration.ofSeconds(200))
            .build();

    assertThat(settings.toBuilder().build()).isEqualTo(settings);
    assertThat(settings.toBuilder().threads(3).build().threads()).isEqualTo(3);
  }

  @Test
  void aBuiltValueKeepsWhatItWasGivenAndTheDefaultsForTheRest() {
    SolveSettings settings =
        SolveSettings.builder()
            .threads(7)
            .lease(Duration.ofMinutes(5))
            .solveDeadline(Duration.ofMinutes(20))
            .firstPollWait(CaptchaType.IMAGE, Duration.ofSeconds(2))
            .build();

    assertThat(settings.threads()).isEqualTo(7);
    assertThat(settings.lease()).isEqualTo(Duration.ofMinutes(5));
    assertThat(settings.solveDeadline()).isEqualTo(Duration.ofMinutes(20));
    assertThat(settings.firstPollWait(CaptchaType.IMAGE)).isEqualTo(Duration.ofSeconds(2));
    assertThat(settings.firstPollWait(CaptchaType.TURNSTILE)).isEqualTo(Duration.ofMillis(4200));
    assertThat(settings.tokenTtl()).isEqualTo(SolveSettings.defaultTokenTtl());
    assertThat(settings.pollInterval()).isEqualTo(SolveSettings.DEFAULT_POLL_INTERVAL);
  }

  @Test
  void aSettingThatCannotWorkIsRefusedNamingItsBuilderMethods() {
    assertThatThrownBy(() -> SolveSettings.builder().pollInterval(Duration.ofSeconds(2)).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("pollInterval(Duration) must be at least 5s");
    assertThatThrownBy(() -> SolveSettings.builder().lease(Duration.ofSeconds(120)).build())
        .hasMessage("lease(Duration) must be longer than solveTimeout(Duration)");
    assertThatThrownBy(
            () -> SolveSettings.builder().tokenTtl(CaptchaType.IMAGE, Duration.ZERO).build())
        .hasMessage("tokenTtl(CaptchaType, Duration).IMAGE must be positive");
  }

  @Test
  void aRefusalNamesItsSettingsAnyOtherWayAskedFor() {
    InvalidSettingException e =
        new InvalidSettingException(
            "{lease(Duration)} must be longer than {solveTimeout(Duration)}");

    assertThat(e.settings()).containsExactly("lease", "solveTimeout");
    assertThat(e.message(method -> "captchaai." + method))
        .isEqualTo("captchaai.lease must be longer than captchaai.solveTimeout");
    assertThat(e.message(method -> method.equals("lease") ? "the lease" : null))
        .isEqualTo("the lease must be longer than solveTimeout(Duration)");
  }
}
