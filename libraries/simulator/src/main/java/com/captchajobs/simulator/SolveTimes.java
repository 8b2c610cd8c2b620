package com.captchajobs.simulator;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * Solve-time ranges by method, before the time scale. Defaults follow CaptchaAI's published timings
 * (reCAPTCHA v2 under 60 s, v3 about 5 s, Turnstile under 10 s, images in seconds); an override by
 * plain method name replaces every variant of that method.
 *
 * <p>The same table, by type, is core's {@code SolveTimes.documented()} (the prior of the
 * first-poll waits). The simulator does not depend on core, so the two are written twice; core's
 * {@code SimulatorSolveTimesMatchTheEngineTest} fails when they differ.
 */
final class SolveTimes {
  static final Map<String, Range> DEFAULTS =
      Map.of(
          "userrecaptcha", Range.ofSeconds(12, 40),
          "userrecaptcha:v3", Range.ofSeconds(3, 8),
          "userrecaptcha:enterprise", Range.ofSeconds(15, 45),
          "turnstile", Range.ofSeconds(3, 9),
          "cloudflare_challenge", Range.ofSeconds(10, 25),
          "base64", Range.ofSeconds(1, 4),
          "post", Range.ofSeconds(1, 4),
          "geetest", Range.ofSeconds(5, 15));

  private final Map<String, Range> overrides;
  private final double timeScale;

  SolveTimes(Map<String, Range> overrides, double timeScale) {
    this.overrides = new HashMap<>(overrides);
    this.timeScale = timeScale;
  }

  /** A solve time in milliseconds, uniform in the range, scaled. */
  long draw(Submission submission, Random random) {
    Range range = overrides.get(submission.method());
    if (range == null) {
      range = DEFAULTS.getOrDefault(submission.variant(), DEFAULTS.get(submission.method()));
    }
    double millis =
        range.minMillis() + random.nextDouble() * (range.maxMillis() - range.minMillis());
    return Math.round(millis * timeScale);
  }

  record Range(long minMillis, long maxMillis) {
    static Range ofSeconds(long min, long max) {
      return new Range(min * 1000, max * 1000);
    }

    static Range of(Duration min, Duration max) {
      if (min.isNegative() || max.compareTo(min) < 0) {
        throw new IllegalArgumentException(
            "solveTime needs 0 <= min <= max, got min=" + min + ", max=" + max);
      }
      return new Range(min.toMillis(), max.toMillis());
    }
  }
}
