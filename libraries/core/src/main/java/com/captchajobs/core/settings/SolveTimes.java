package com.captchajobs.core.settings;

import com.captchajobs.core.client.CaptchaType;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * A range of solve times of one CaptchaAI task type.
 *
 * @param min the shortest documented solve time
 * @param max the longest documented solve time
 */
public record SolveTimes(Duration min, Duration max) {

  /**
   * The solve times CaptchaAI publishes per type (see "Timings" in docs/captchaai-contract.md), the
   * prior of each type's first-poll wait. The simulator's default solve times are the same table by
   * in.php method; {@code SimulatorSolveTimesMatchTheEngineTest} keeps the two equal.
   */
  public static Map<CaptchaType, SolveTimes> documented() {
    Map<CaptchaType, SolveTimes> m = new EnumMap<>(CaptchaType.class);
    m.put(CaptchaType.RECAPTCHA_V2, seconds(12, 40));
    m.put(CaptchaType.RECAPTCHA_V3, seconds(3, 8));
    m.put(CaptchaType.RECAPTCHA_ENTERPRISE, seconds(15, 45));
    m.put(CaptchaType.TURNSTILE, seconds(3, 9));
    m.put(CaptchaType.CLOUDFLARE_CHALLENGE, seconds(10, 25));
    m.put(CaptchaType.IMAGE, seconds(1, 4));
    m.put(CaptchaType.GEETEST, seconds(5, 15));
    m.put(CaptchaType.GEETEST_V4, seconds(5, 15));
    return m;
  }

  /** The instant {@code share} (0 to 1) of the way from {@link #min} to {@link #max}. */
  public Duration at(double share) {
    long from = min.toMillis();
    return Duration.ofMillis(from + Math.round(share * (max.toMillis() - from)));
  }

  private static SolveTimes seconds(long min, long max) {
    return new SolveTimes(Duration.ofSeconds(min), Duration.ofSeconds(max));
  }
}
