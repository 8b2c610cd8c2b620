package com.captchajobs.core.internal.time;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
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
    return new FirstPollWaits(SolveSettings.defaults(), (type, n) -> List.copyOf(fleet), clock);
  }

  void later() {
    now = now.plus(FirstPollWaits.REFRESH);
  }

  @Test
  void aTypeNeverSeenStartsFromThe20thPercentileOfItsDocumentedRange() {
    FirstPollWaits waits = waits();
    // Turnstile 3-9 s: 4.2 s, below the 5 s floor (it was a flat 10 s before)
    assertThat(waits.waitFor(CaptchaType.TURNSTILE)).isEqualTo(Duration.ofSeconds(5));
    // Cloudflare 10-25 s: 13 s
    assertThat(waits.waitFor(CaptchaType.CLOUDFLARE_CHALLENGE)).isEqualTo(Duration.ofSeconds(13));
    // reCAPTCHA v2 12-40 s: 17.6 s
    assertThat(waits.waitFor(CaptchaType.RECAPTCHA_V2)).isEqualTo(Duration.ofMillis(17_600));
  }

  @Test
  void aConfiguredFirstPollWaitIsThePriorOfItsType() {
    FirstPollWaits waits =
        new FirstPollWaits(
            SolveSettings.defaults().toBuilder()
                .firstPollWait(CaptchaType.IMAGE, Duration.ofSeconds(9))
                .build(),
            (type, n) -> List.of(),
            Clock.fixed(now, ZoneOffset.UTC));
    assertThat(waits.waitFor(CaptchaType.IMAGE)).isEqualTo(Duration.ofSeconds(9));
  }

  @Test
  void eachSolveSeenShrinksTheWeightOfThePriorInsteadOfAFixedCountSwitchingAtOnce() {
    FirstPollWaits waits = waits();
    List<Duration> seen = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      // found at 30 s: ready about 27.5 s after submission, far above the 13 s prior
      fleet.add(new SolveRepository.SolvedSample(30_000, false));
      later();
      seen.add(waits.waitFor(CaptchaType.CLOUDFLARE_CHALLENGE));
    }
    int k = SolveSettings.DEFAULT_LEARN_AFTER_SOLVES;
    // one solve: the prior still weighs k times as much as it
    assertThat(seen.get(0))
        .isEqualTo(Duration.ofMillis(Math.round((k * 13_000.0 + 27_500) / (k + 1))));
    // k solves: half way
    assertThat(seen.get(k - 1)).isEqualTo(Duration.ofMillis((13_000L + 27_500L) / 2));
    // every solve moves it further, never past what the solves show
    for (int i = 1; i < seen.size(); i++) {
      assertThat(seen.get(i)).isGreaterThan(seen.get(i - 1));
    }
    assertThat(seen.get(49)).isBetween(Duration.ofMillis(26_000), Duration.ofMillis(27_500));
  }

  @Test
  void aTypeMostlyReadyAtItsFirstPollIsPolledEarlierButNeverBelowTheFloor() {
    for (int i = 0; i < 50; i++) {
      fleet.add(new SolveRepository.SolvedSample(10_000, false));
    }
    FirstPollWaits waits = waits();
    Duration first = waits.waitFor(CaptchaType.TURNSTILE);
    // learned 7.5 s, blended with the 4.2 s prior that counts as k solves
    int k = SolveSettings.DEFAULT_LEARN_AFTER_SOLVES;
    assertThat(first)
        .isEqualTo(Duration.ofMillis(Math.round((k * 4_200.0 + 50 * 7_500) / (k + 50))));

    fleet.clear();
    for (int i = 0; i < 50; i++) {
      fleet.add(new SolveRepository.SolvedSample(6_000, false));
    }
    later();
    assertThat(waits.waitFor(CaptchaType.TURNSTILE))
        .isEqualTo(SolveSettings.DEFAULT_MIN_FIRST_POLL_WAIT);
  }

  @Test
  void refreshingWithoutNewSolvesDoesNotMoveTheWait() {
    for (int i = 0; i < 50; i++) {
      fleet.add(new SolveRepository.SolvedSample(i < 25 ? 15_000 : 20_000, false));
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
      fleet.add(new SolveRepository.SolvedSample(20_000 + i * 200, false));
    }
    Duration learned = waits().waitFor(CaptchaType.RECAPTCHA_V2);

    assertThat(learned).isBetween(Duration.ofMillis(18_500), Duration.ofMillis(20_000));
  }

  @Test
  void theFleetIsReadAtMostOncePerRefresh() {
    int[] reads = {0};
    FirstPollWaits waits =
        new FirstPollWaits(
            SolveSettings.defaults(),
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

  @Test
  void theLongestRecentPushedSolveWithAMarginIsKnownOnceEnoughPushedSolvesWereSeen() {
    for (int i = 0; i < FirstPollWaits.MIN_PUSHED - 1; i++) {
      fleet.add(new SolveRepository.SolvedSample(8_000 + i * 100, true));
    }
    fleet.add(
        new SolveRepository.SolvedSample(35_000, false)); // found by a poll: not a push's time
    FirstPollWaits waits = waits();
    assertThat(waits.longestPushed(CaptchaType.RECAPTCHA_V2)).isEmpty(); // never read yet
    waits.waitFor(CaptchaType.RECAPTCHA_V2);
    assertThat(waits.longestPushed(CaptchaType.RECAPTCHA_V2)).isEmpty(); // one pushed too few

    fleet.add(new SolveRepository.SolvedSample(12_345, true));
    later();
    waits.waitFor(CaptchaType.RECAPTCHA_V2);
    assertThat(waits.longestPushed(CaptchaType.RECAPTCHA_V2))
        .contains(Duration.ofMillis(12_345).plus(FirstPollWaits.LONGEST_PUSHED_MARGIN));
    assertThat(waits.longestPushed(CaptchaType.TURNSTILE)).isEmpty(); // each type its own
  }
}
