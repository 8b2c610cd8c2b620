package com.captchajobs.core.internal.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.upkeep.Reconciler;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One clock: a worker whose own clock runs 60 s ahead of the database's. Expiries and leases are
 * written and compared on the database clock, so the skew changes nothing.
 */
class ClockSkewTest {

  static final String KEY = "skewKeySKEWkeySKEWkeySKEWkey1234";
  static final Duration AHEAD = Duration.ofSeconds(60);

  /** The skewed node's clock. */
  static Clock aheadClock() {
    return Clock.offset(Clock.systemUTC(), AHEAD);
  }

  static CaptchaAiSimulator sim;
  static EngineNode node;
  static SolveProbe solves;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    node =
        EngineNode.start(
            EmbeddedPostgresSupport.newDatabase(),
            sim.baseUrl(),
            KEY,
            Map.of(
                "captchaai.first-poll-wait.TURNSTILE", "1s",
                "captchaai.first-poll-wait.RECAPTCHA_V3", "15s",
                "captchaai.reconcile-interval", "1h"),
            aheadClock());
    solves = node.probe();
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  @Test
  void aWorkerWhoseClockRunsAMinuteAheadNeitherExpiresTokensEarlyNorReclaimsLiveLeases() {
    // A token stored by a node with a right clock, valid 30 s more on the database's clock.
    UUID id = solves.turnstile("skew-token");
    solves.awaitStatus(id, SolveStatus.SOLVED);
    solves
        .jdbc()
        .update(
            "UPDATE captchajobs.solve SET expires_at = now() + interval '30 seconds' WHERE id = ?",
            id);
    // A live lease: a submitted solve waiting for its first poll.
    UUID waiting =
        solves.enqueue(
            "skew-lease",
            CaptchaType.RECAPTCHA_V3,
            Map.of(
                "sitekey",
                "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
                "pageUrl",
                SolveProbe.pageUrl("skew-lease")));
    solves.awaitStatus(waiting, SolveStatus.SUBMITTED);
    FleetGate gate = node.part(FleetGate.class);
    assertThat(gate.holds(waiting)).isTrue();

    Reconciler reconciler = node.part(Reconciler.class);
    for (int i = 0; i < 3; i++) {
      assertThat(reconciler.reconcile()).isTrue();
    }

    assertThat(solves.get(id).status()).isEqualTo(SolveStatus.SOLVED);
    assertThat(gate.holds(waiting)).isTrue();
    assertThat(node.part(com.captchajobs.core.CaptchaJobs.class).solves().claim(id).token())
        .isNotBlank();
    Solve solved = solves.awaitStatus(waiting, SolveStatus.SOLVED, Duration.ofSeconds(60));
    Boolean stored =
        solves
            .jdbc()
            .queryForObject(
                "SELECT abs(extract(epoch FROM solved_at - now())) < 30 FROM captchajobs.solve"
                    + " WHERE id = ?",
                Boolean.class,
                waiting);
    assertThat(stored).as("solved_at is on the database clock, not 60 s ahead").isTrue();
    Boolean submittedOnDatabaseClock =
        solves
            .jdbc()
            .queryForObject(
                "SELECT submitted_at BETWEEN created_at AND solved_at FROM captchajobs.solve"
                    + " WHERE id = ?",
                Boolean.class,
                waiting);
    assertThat(submittedOnDatabaseClock)
        .as("submitted_at, computed on the node, is on the database clock too")
        .isTrue();
    assertThat(node.part(DatabaseClock.class).offset())
        .as("the engine measured this node's clock 60 s ahead of the database's")
        .isBetween(AHEAD.negated().minusSeconds(2), AHEAD.negated().plusSeconds(2));
    assertThat(solved.expiresAt()).isEqualTo(solved.solvedAt().plus(Duration.ofSeconds(90)));
    await().until(() -> !gate.holds(waiting));
  }
}
