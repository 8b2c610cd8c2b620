package com.captchajobs.core.internal.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The slot hand-off: a slot freed by a token goes to the next waiting solve inside the job that
 * freed it: that solve's in.php follows in the same thread, without a JobRunr job of its own, so no
 * fetch by JobRunr stands between the two. One slot, so every solve after the first waits for one.
 */
class SlotHandoffTest {

  static final String KEY = "handoffKeyHANDOFFkey123456789012";

  static CaptchaAiSimulator sim;
  static EngineNode node;
  static SolveProbe solves;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    node =
        EngineNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchaai.threads", "1",
                "captchaai.first-poll-wait.TURNSTILE", "1s",
                "captchaai.min-first-poll-wait", "1s",
                "captchaai.provider-check-interval", "1h",
                // The repair pass hands free slots on too, each with a submit job: one that ran
                // between a job freeing its slot and taking it back for the next solve would
                // give that solve a job of its own (correct, but not the hand-off looked at here).
                "captchaai.reconcile-interval", "1h"));
    solves = node.probe();
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  @BeforeEach
  void allSlotsFree() {
    await().until(() -> node.part(FleetGate.class).inFlight() == 0);
  }

  @Test
  void theSolveWaitingForTheOnlySlotIsSubmittedByTheJobThatFreedItAndNeedsNoJobOfItsOwn() {
    UUID first = solves.turnstile("handoff-first");
    UUID second = solves.turnstile("handoff-second");
    UUID third = solves.turnstile("handoff-third");

    for (UUID id : List.of(first, second, third)) {
      assertThat(solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(25)).submits())
          .isEqualTo(1);
    }
    // The later two waited for the slot and were handed it; none got a submit job.
    assertThat(handoffs(second)).isEqualTo(1);
    assertThat(handoffs(third)).isEqualTo(1);
    assertThat(jobsNaming(second, "SubmitJobRequest")).isZero();
    assertThat(jobsNaming(third, "SubmitJobRequest")).isZero();
    assertThat(jobsNaming(first, "SubmitJobRequest")).isEqualTo(1);
  }

  @Test
  void aHandedSolveThatInPhpRejectsForGoodFailsInADeadJobOfItsOwnAndTheCarrierSucceeds() {
    UUID first = solves.turnstile("handoff-carrier");
    UUID rejected =
        solves.enqueue(
            "handoff-rejected",
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "invalid", "pageUrl", SolveProbe.pageUrl("handoff-rejected")));

    assertThat(solves.awaitStatus(first, SolveStatus.SOLVED, Duration.ofSeconds(25))).isNotNull();
    Solve failed = solves.awaitStatus(rejected, SolveStatus.FAILED, Duration.ofSeconds(25));
    assertThat(failed.errorCode()).isEqualTo("ERROR_BAD_TOKEN_OR_PAGEURL");
    assertThat(handoffs(rejected)).isZero(); // in.php never gave it a task
    assertThat(sim.stats().rejectedSubmitsByCode()).containsEntry("ERROR_BAD_TOKEN_OR_PAGEURL", 1L);

    // The failure shows among the dead jobs under the rejected solve's own name, once.
    await().atMost(Duration.ofSeconds(20)).until(() -> jobsIn(rejected, "FAILED"), n -> n == 1);
    assertThat(jobsIn(first, "FAILED")).isZero();
    assertThat(jobsIn(first, "SUCCEEDED")).isPositive();
    assertThat(sim.stats().rejectedSubmitsByCode()).containsEntry("ERROR_BAD_TOKEN_OR_PAGEURL", 1L);
  }

  @Test
  void aHandedSolveWhoseInPhpFailsForNowIsRetriedByAJobOfItsOwnAndSolved() {
    UUID first = solves.turnstile("handoff-before-fault");
    UUID retried = solves.turnstile("handoff-retried");
    solves.awaitStatus(first, SolveStatus.SUBMITTED, Duration.ofSeconds(25));
    // The next in.php is the handed solve's: a provider code for "try later", no lost reply.
    sim.injectNext(Endpoint.IN, Fault.SERVER_ERROR);

    // The retry is a scheduled job: JobRunr moves it to the queue at its next poll (5 s).
    Solve solved = solves.awaitStatus(retried, SolveStatus.SOLVED, Duration.ofSeconds(40));
    assertThat(solved.submits()).isEqualTo(1);
    assertThat(jobsNaming(retried, "SubmitJobRequest")).isEqualTo(1);
    assertThat(solves.awaitStatus(first, SolveStatus.SOLVED).submits()).isEqualTo(1);
  }

  private int handoffs(UUID id) {
    return solves
        .jdbc()
        .queryForObject(
            "SELECT count(*) FROM captchajobs.slot_handoff WHERE solve_id = ?", Integer.class, id);
  }

  /** JobRunr jobs whose stored form names the solve and the given text. */
  private int jobsNaming(UUID id, String text) {
    return solves
        .jdbc()
        .queryForObject(
            "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?"
                + " AND jobasjson LIKE ?",
            Integer.class,
            "%" + id + "%",
            "%" + text + "%");
  }

  private int jobsIn(UUID id, String state) {
    return solves
        .jdbc()
        .queryForObject(
            "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ? AND state = ?",
            Integer.class,
            "%" + id + "%",
            state);
  }
}
