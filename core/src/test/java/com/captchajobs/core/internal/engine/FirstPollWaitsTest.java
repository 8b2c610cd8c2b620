package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FirstPollWaitsTest {

  final List<SolveRepository.SolvedSample> fleet = new ArrayList<>();
  Instant now = Instant.parse("2026-01-01T00:00:00Z");

  FirstPollWaits waits() {
    Clock clock =
        new Clock() {
          @Override
          public ZoneOffset getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(java.time.ZoneId zone) {
            return this;
          }

          @Override
          public Instant instant() {
            return now;
          }
        };
    return new FirstPollWaits(EngineSettings.defaults(), (type, n) -> List.copyOf(fleet), clock);
  }

  void later() {
    now = now.plus(FirstPollWaits.REFRESH);
  }

  @Test
  void theDocumentedWaitHoldsUntilEnoughSolvesWereSeen() {
    for (int i = 0; i < EngineSettings.DEFAULT_LEARN_AFTER_SOLVES - 1; i++) {
      fleet.add(new SolveRepository.SolvedSample(10_000));
    }
    assertThat(waits().waitFor(CaptchaType.TURNSTILE)).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aTypeMostlyReadyAtItsFirstPollIsPolledEarlierButNeverBelowTheFloor() {
    for (int i = 0; i < 50; i++) {
      fleet.add(new SolveRepository.SolvedSample(10_000));
    }
    FirstPollWaits waits = waits();
    Duration first = waits.waitFor(CaptchaType.TURNSTILE);
    assertThat(first).isEqualTo(Duration.ofMillis(7_500));

    fleet.clear();
    for (int i = 0; i < 50; i++) {
      fleet.add(new SolveRepository.SolvedSample(6_000));
    }
    later();
    assertThat(waits.waitFor(CaptchaType.TURNSTILE))
        .isEqualTo(EngineSettings.DEFAULT_MIN_FIRST_POLL_WAIT);
  }

  @Test
  void refreshingWithoutNewSolvesDoesNotMoveTheWait() {
    for (int i = 0; i < 50; i++) {
      fleet.add(new SolveRepository.SolvedSample(i < 25 ? 15_000 : 20_000));
    }
    FirstPollWaits waits = waits();
    Duration learned = waits.waitFor(CaptchaType.RECAPTCHA_V2);
    for (int i = 0; i < 100; i++) {
      later();
      assertThat(waits.waitFor(CaptchaType.RECAPTCHA_V2)).isEqualTo(learned);
    }
  }

  @Test
  void aTypeRarelyReadyAtItsFirstPollWaitsForTheTwentiethPercentileOfItsReadyTimes() {
    for (int i = 0; i < 50; i++) {
      // found at the 3rd poll, 20..29.8 s after submission: ready about 2.5 s before that
      fleet.add(new SolveRepository.SolvedSample(20_000 + i * 200));
    }
    Duration learned = waits().waitFor(CaptchaType.RECAPTCHA_V2);

    assertThat(learned).isBetween(Duration.ofMillis(18_500), Duration.ofMillis(20_000));
  }

  @Test
  void theFleetIsReadAtMostOncePerRefresh() {
    int[] reads = {0};
    FirstPollWaits waits =
        new FirstPollWaits(
            EngineSettings.defaults(),
            (type, n) -> {
              reads[0]++;
              return List.of();
            },
            Clock.fixed(now, ZoneOffset.UTC));
    for (int i = 0; i < 10; i++) {
      waits.waitFor(CaptchaType.IMAGE);
    }
    assertThat(reads[0]).isEqualTo(1);
  }
}
