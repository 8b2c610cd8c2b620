package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.TaskRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A poll whose res.php call fails without an answer (a 502 page, a reset) leaves a ready answer,
 * and its thread at the provider, idle until the next call. The poll calls again itself, 5 s after
 * the failed call (the provider's rule), for as long as the calls fail, instead of leaving the next
 * try to JobRunr's backoff, which comes later (5 to 6.25 s, then 9, 27 s and more, each after the
 * turn of the node that moves scheduled jobs). Polling only, over sockets, on real PostgreSQL and
 * JobRunr; judged from the simulator's request log and JobRunr's job rows.
 */
class PolledFetchAfterAFaultTest {

  static final String KEY = "polledFaultKeyPOLLEDFAULTkey1234";

  static final int FAULTS = 4;

  static CaptchaAiSimulator sim;
  static EngineNode node;
  static SolveProbe solves;

  @BeforeAll
  static void start() {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 5)
            .solveTime("turnstile", Duration.ZERO, Duration.ofMillis(200))
            .build()
            .start();
    node =
        EngineNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                // the first poll finds the answer ready: every later call is a fault's retry
                "captchaai.min-first-poll-wait",
                "1s",
                "captchaai.first-poll-wait.TURNSTILE",
                "1s",
                "captchaai.provider-check-interval",
                "1h"));
    solves = node.probe();
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  @Test
  void aPolledFetchThatFailsIsMadeAgainFiveSecondsAfterTheFailedCallByTheSameJob() {
    String key = "polled-fetch-fault";
    sim.injectNext(Endpoint.RES, Fault.HTML_502);
    UUID id = solves.turnstile(key);

    solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(60));

    List<RequestRecord> gets = getsOf(key);
    assertThat(gets).as("the failed get, then the one that found the answer").hasSize(2);
    assertThat(gets.get(0).fault()).isEqualTo(Fault.HTML_502.name());
    assertThat(gets.get(1).outcome()).isEqualTo("OK");
    assertThat(gets.get(1).at() - gets.get(0).at())
        .as("CaptchaAI's 5 s after a failed call")
        .isGreaterThanOrEqualTo(5_000);
    // the old code failed the job and left the next call to JobRunr's retry
    assertThat(failedStates(id)).as("FAILED states in the solve's jobs").isZero();
  }

  @Test
  void fourFailedCallsInARowAreEachCalledAgainFiveSecondsLaterWithoutJobRunrsBackoff() {
    String key = "polled-fetch-faults";
    for (int i = 0; i < FAULTS; i++) {
      sim.injectNext(Endpoint.RES, Fault.HTML_502);
    }
    UUID id = solves.turnstile(key);

    solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(120));

    List<RequestRecord> gets = getsOf(key);
    assertThat(gets).hasSize(FAULTS + 1);
    for (int i = 0; i < FAULTS; i++) {
      assertThat(gets.get(i).fault()).isEqualTo(Fault.HTML_502.name());
    }
    assertThat(gets.get(gets.size() - 1).outcome()).isEqualTo("OK");
    for (int i = 1; i < gets.size(); i++) {
      assertThat(gets.get(i).at() - gets.get(i - 1).at())
          .as("gap before get %d", i)
          .isGreaterThanOrEqualTo(5_000);
    }
    // the old code handed every failed call to JobRunr: one FAILED state each, and 9 s, then 27 s
    // of backoff before the third and the fourth call
    assertThat(failedStates(id)).as("FAILED states in the solve's jobs").isZero();
  }

  private static List<RequestRecord> getsOf(String businessKey) {
    TaskRecord task =
        sim.tasks().stream()
            .filter(t -> SolveProbe.pageUrl(businessKey).equals(t.pageUrl()))
            .findFirst()
            .orElseThrow();
    return sim.requests().stream().filter(r -> r.resGet() && r.taskId() == task.id()).toList();
  }

  /** FAILED states in the history of every JobRunr job that names the solve. */
  private static int failedStates(UUID solveId) {
    return solves
        .jdbc()
        .queryForObject(
            "SELECT coalesce(sum((length(jobasjson) - length(replace(jobasjson,"
                + " 'FailedState', ''))) / length('FailedState')), 0)::int"
                + " FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE ?",
            Integer.class,
            "%" + solveId + "%");
  }
}
