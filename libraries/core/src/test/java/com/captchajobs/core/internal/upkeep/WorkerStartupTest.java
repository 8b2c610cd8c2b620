package com.captchajobs.core.internal.upkeep;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What a worker checks before it starts: a cap above the plan stops it. */
class WorkerStartupTest {

  static final String GOOD_KEY = "breakerGoodKeyBREAKERgoodKey1234";

  static CaptchaAiSimulator sim;

  @BeforeAll
  static void start() {
    sim =
        CaptchaAiSimulator.builder()
            .account(GOOD_KEY, 5)
            .timeScale(0.05)
            .ipBan(1000, java.time.Duration.ofMinutes(5))
            .build()
            .start();
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  @Test
  void preflightRefusesACapAboveThePlan() {
    assertThatThrownBy(
            () -> EngineNode.onFreshDatabase(sim, GOOD_KEY, Map.of("captchaai.threads", "10")))
        .hasStackTraceContaining("threads(int)=10 exceeds the plan's 5 threads");
  }
}
