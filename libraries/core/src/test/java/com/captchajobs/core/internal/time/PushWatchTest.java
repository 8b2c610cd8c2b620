package com.captchajobs.core.internal.time;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.testing.CapturedOutput;
import com.captchajobs.core.testing.OutputCapture;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/** The WARN of a worker that asks for pushes while every answer comes by poll. */
@Isolated
@Tag("unit")
@ExtendWith(OutputCapture.class)
class PushWatchTest {

  static final String URL = "https://solves.example.test/captchaai/pingback";

  /** A clock the test moves. */
  static final class Hands extends Clock {
    Instant now = Instant.parse("2026-12-03T10:00:00Z");

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
  }

  @Test
  void pushesArriveFromTheFirstPushedAnswerUntilThreeAnswersInARowCameByPollAlone() {
    PushWatch watch = new PushWatch(URL, new Hands());
    assertThat(watch.pushesArrive()).as("no answer yet").isFalse();
    watch.answered(false);
    assertThat(watch.pushesArrive()).as("polled only").isFalse();
    watch.answered(true);
    assertThat(watch.pushesArrive()).isTrue();
    watch.answered(false);
    watch.answered(false);
    assertThat(watch.pushesArrive()).as("two pushes lost in a row").isTrue();
    watch.answered(false);
    assertThat(watch.pushesArrive()).as("three in a row").isFalse();
    watch.answered(true);
    assertThat(watch.pushesArrive()).isTrue();
  }

  @Test
  void twentyAnswersByPollWarnOnceNamingThePropertyAndWhatToCheckAndNotAgainWithinTenMinutes(
      CapturedOutput output) {
    Hands clock = new Hands();
    PushWatch watch = new PushWatch(URL, clock);
    long before = warnings(output);

    for (int i = 0; i < 19; i++) {
      watch.answered(false);
    }
    assertThat(warnings(output) - before).isZero();
    watch.answered(false);

    assertThat(warnings(output) - before).isEqualTo(1);
    assertThat(output.toString())
        .contains("captchaai.pingback-url")
        .contains(URL)
        .contains("reachable from the internet")
        .contains("https")
        .contains("registered");
    for (int i = 0; i < 40; i++) {
      watch.answered(false);
    }
    assertThat(warnings(output) - before).as("at most every 10 minutes").isEqualTo(1);
    clock.now = clock.now.plus(Duration.ofMinutes(11));
    for (int i = 0; i < 20; i++) {
      watch.answered(false);
    }
    assertThat(warnings(output) - before).isEqualTo(2);
  }

  @Test
  void fewerAnswersByPollWarnOnceTenMinutesHavePassedAndOnePushStartsTheCountAgain(
      CapturedOutput output) {
    Hands clock = new Hands();
    PushWatch watch = new PushWatch(URL, clock);
    long before = warnings(output);

    for (int i = 0; i < 19; i++) {
      watch.answered(false);
    }
    watch.answered(true); // a push came: all is well
    for (int i = 0; i < 19; i++) {
      watch.answered(false);
    }
    assertThat(warnings(output) - before).isZero();

    clock.now = clock.now.plus(Duration.ofMinutes(10));
    watch.answered(false); // the 10 minutes come first
    assertThat(warnings(output) - before).isEqualTo(1);
  }

  private static long warnings(CapturedOutput output) {
    return output.toString().lines().filter(l -> l.contains("no push arrives")).count();
  }
}
