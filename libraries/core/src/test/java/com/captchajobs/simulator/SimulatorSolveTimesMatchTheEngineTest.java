package com.captchajobs.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The simulator's default solve times ({@link SolveTimes#DEFAULTS}, by in.php method) and the
 * engine's documented ones ({@link com.captchajobs.core.settings.SolveTimes#documented()}, by type,
 * the prior of each first-poll wait) are one table written twice: the simulator does not depend on
 * core. This test ties them, so that a change to one fails here until the other follows. It lives
 * in core's tests, in the simulator's package, because core's tests see both modules.
 */
@Tag("unit")
class SimulatorSolveTimesMatchTheEngineTest {

  /** The simulator's default-solve-time key of each type. */
  private static final Map<CaptchaType, String> KEYS = keys();

  private static Map<CaptchaType, String> keys() {
    Map<CaptchaType, String> m = new EnumMap<>(CaptchaType.class);
    m.put(CaptchaType.RECAPTCHA_V2, "userrecaptcha");
    m.put(CaptchaType.RECAPTCHA_V3, "userrecaptcha:v3");
    m.put(CaptchaType.RECAPTCHA_ENTERPRISE, "userrecaptcha:enterprise");
    m.put(CaptchaType.TURNSTILE, "turnstile");
    m.put(CaptchaType.CLOUDFLARE_CHALLENGE, "cloudflare_challenge");
    m.put(CaptchaType.IMAGE, "base64");
    m.put(CaptchaType.GEETEST, "geetest");
    m.put(CaptchaType.GEETEST_V4, "geetest");
    return m;
  }

  @Test
  void everyTypeSolvesInTheSimulatorWithinTheRangeTheEngineStartsFrom() {
    Map<CaptchaType, com.captchajobs.core.settings.SolveTimes> documented =
        com.captchajobs.core.settings.SolveTimes.documented();
    assertThat(documented.keySet()).containsExactlyInAnyOrder(CaptchaType.values());
    documented.forEach(
        (type, range) -> {
          SolveTimes.Range simulated = SolveTimes.DEFAULTS.get(KEYS.get(type));
          assertThat(simulated).as(type + " has a simulator default").isNotNull();
          assertThat(simulated.minMillis()).as(type + " min").isEqualTo(range.min().toMillis());
          assertThat(simulated.maxMillis()).as(type + " max").isEqualTo(range.max().toMillis());
        });
  }

  @Test
  void everySimulatorDefaultBelongsToAType() {
    // "post" is the multipart form of an image, the same task as "base64"
    assertThat(SolveTimes.DEFAULTS.get("post")).isEqualTo(SolveTimes.DEFAULTS.get("base64"));
    assertThat(SolveTimes.DEFAULTS.keySet())
        .allMatch(key -> key.equals("post") || KEYS.containsValue(key));
  }
}
