package com.captchajobs.core.internal.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A rejected key stops every node, and an operator's close lets them submit again. What a worker
 * node shows of it (health, the Actuator endpoint) is the worker module's {@code
 * BreakerAndStartupTest}; the preflight is {@code WorkerStartupTest}.
 */
class BreakerTest {

  static final String GOOD_KEY = "breakerGoodKeyBREAKERgoodKey1234";

  /** Well-formed (32 characters) but unknown to the provider. */
  static final String UNKNOWN_KEY = "unknownKeyUNKNOWNkeyUNKNOWNkey12";

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
  void aWrongKeyOpensTheBreakerAndASecondNodeThenMakesNoInPhpCall() {
    String db = EmbeddedPostgresSupport.newDatabase();
    Map<String, String> noPreflight = Map.of("captchaai.preflight", "false");
    try (EngineNode first = EngineNode.start(db, sim.baseUrl(), UNKNOWN_KEY, noPreflight)) {
      SolveProbe solves = first.probe();
      long rejectedBefore = sim.stats().rejected("ERROR_KEY_DOES_NOT_EXIST");
      UUID one = solves.turnstile("breaker-1");
      Solve failed = solves.awaitStatus(one, SolveStatus.FAILED);
      assertThat(failed.errorCode()).isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
      assertThat(failed.errorClass()).isEqualTo(ErrorClass.CREDENTIAL);
      assertThat(first.part(Breaker.class).openState()).isPresent();
      long rejectedAfterFirst = sim.stats().rejected("ERROR_KEY_DOES_NOT_EXIST");
      assertThat(rejectedAfterFirst).isEqualTo(rejectedBefore + 1);

      try (EngineNode second = EngineNode.start(db, sim.baseUrl(), UNKNOWN_KEY, noPreflight)) {
        first.close();
        UUID two = second.probe().turnstile("breaker-2");
        Solve alsoFailed = second.probe().awaitStatus(two, SolveStatus.FAILED);

        assertThat(alsoFailed.errorCode()).isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
        assertThat(alsoFailed.errorClass()).isEqualTo(ErrorClass.CREDENTIAL);
        assertThat(sim.stats().rejected("ERROR_KEY_DOES_NOT_EXIST")).isEqualTo(rejectedAfterFirst);
        assertThat(sim.stats().submitsByPageUrl())
            .doesNotContainKey(SolveProbe.pageUrl("breaker-2"));
      }
    }
  }

  @Test
  void anOperatorClosingTheBreakerLetsSubmissionsResume() {
    String db = EmbeddedPostgresSupport.newDatabase();
    try (EngineNode node = EngineNode.start(db, sim.baseUrl(), GOOD_KEY, Map.of())) {
      Breaker breaker = node.part(Breaker.class);
      breaker.open("ERROR_IP_NOT_ALLOWED", "test");
      SolveProbe solves = node.probe();
      assertThat(
              solves
                  .awaitStatus(solves.turnstile("breaker-closed-1"), SolveStatus.FAILED)
                  .errorCode())
          .isEqualTo("ERROR_IP_NOT_ALLOWED");

      assertThat(breaker.closeBreaker()).isTrue();
      assertThat(
              solves
                  .awaitStatus(solves.turnstile("breaker-closed-2"), SolveStatus.SOLVED)
                  .submits())
          .isEqualTo(1);
    }
  }
}
