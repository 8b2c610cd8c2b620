package com.captchajobs.core.internal.upkeep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.TaskRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Phantom slots freed early by the provider's working threads ({@link PhantomRelease}), judged from
 * the provider's side: the simulator's own count of tasks in flight and its task records. A fleet
 * cap of 2 on a plan of 4 threads, so that a third task in flight is accepted and seen. Polling
 * only: an answer ready at the provider stays unfetched here until the task's next poll.
 */
@Execution(ExecutionMode.CONCURRENT)
class PhantomReleaseTest {

  static final String KEY = "phantomKeyPHANTOMkeyPHANTOMkey12";
  static final int CAP = 2;

  private static CaptchaAiSimulator provider(Duration turnstile, Duration recaptcha) {
    return CaptchaAiSimulator.builder()
        .account(KEY, CAP + 2)
        .solveTime("turnstile", turnstile, turnstile)
        .solveTime("userrecaptcha", recaptcha, recaptcha)
        .build()
        .start();
  }

  private static EngineNode worker(CaptchaAiSimulator sim, Map<String, String> firstPollWaits) {
    Map<String, String> props = new java.util.HashMap<>(firstPollWaits);
    props.put("captchaai.threads", String.valueOf(CAP));
    props.put("captchaai.lost-submit-hold", "60s");
    props.put("captchaai.max-backoff", "1s");
    props.put("captchaai.reconcile-interval", "1s");
    props.put("captchaai.provider-check-interval", "1h");
    return EngineNode.onFreshDatabase(sim, KEY, props);
  }

  @Test
  void aKnownTaskWhoseAnswerIsReadyButNotYetFetchedDoesNotLetAPhantomWithARunningTaskGo() {
    // A's answer is ready after 1 s and fetched at its first poll after 4 s; the task of B's lost
    // in.php reply runs 8 s. Counting A as running while it is not would free B's phantom at
    // once: a waiting solve takes that slot, A's answer frees another, three tasks in flight.
    try (CaptchaAiSimulator sim = provider(Duration.ofSeconds(1), Duration.ofSeconds(8));
        EngineNode node =
            worker(
                sim,
                Map.of(
                    "captchaai.first-poll-wait.TURNSTILE", "4s",
                    "captchaai.first-poll-wait.RECAPTCHA_V2", "8s"))) {
      SolveProbe solves = node.probe();
      UUID a = solves.turnstile("phantom-ready-a");
      solves.awaitStatus(a, SolveStatus.SUBMITTED);
      sim.injectNext(Endpoint.IN, Fault.LOST_RESPONSE);
      UUID b = solves.recaptchaV2("phantom-ready-b");
      await().atMost(Duration.ofSeconds(10)).until(() -> solves.phantomSlots() == 1);
      List<UUID> waiting =
          List.of(solves.recaptchaV2("phantom-ready-c"), solves.recaptchaV2("phantom-ready-d"));

      solves.awaitStatus(a, SolveStatus.SOLVED, Duration.ofSeconds(30));
      for (UUID id : waiting) {
        solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(90));
      }
      solves.awaitStatus(b, SolveStatus.SOLVED, Duration.ofSeconds(90));

      assertThat(tasksOf(sim, "phantom-ready-b"))
          .as("B's lost reply created a task at the provider, then B submitted again")
          .isEqualTo(2);
      assertThat(sim.stats().maxInFlight()).as("tasks in flight at the provider").isEqualTo(CAP);
    }
  }

  @Test
  void aPhantomWithoutATaskIsFreedLongBeforeItsHoldWhenAPollShowsTheKnownTaskRunning() {
    // A runs 40 s and is polled every 5 s from 1 s on; B's in.php is answered by a 502 page that
    // created no task, so the provider's one working thread is A's, shown running by its polls.
    try (CaptchaAiSimulator sim = provider(Duration.ofSeconds(1), Duration.ofSeconds(40));
        EngineNode node =
            worker(
                sim,
                Map.of(
                    "captchaai.first-poll-wait.RECAPTCHA_V2", "1s",
                    "captchaai.first-poll-wait.TURNSTILE", "1s"))) {
      SolveProbe solves = node.probe();
      UUID a = solves.recaptchaV2("phantom-free-a");
      solves.awaitStatus(a, SolveStatus.SUBMITTED);
      sim.injectNext(Endpoint.IN, Fault.HTML_502);
      UUID b = solves.turnstile("phantom-free-b");
      await().atMost(Duration.ofSeconds(10)).until(() -> solves.phantomSlots() == 1);
      UUID c = solves.turnstile("phantom-free-c");

      // well before the 60 s hold ends and before A's task does, B and C are both solved
      solves.awaitStatus(b, SolveStatus.SOLVED, Duration.ofSeconds(25));
      solves.awaitStatus(c, SolveStatus.SOLVED, Duration.ofSeconds(25));

      assertThat(solves.get(a).status()).isEqualTo(SolveStatus.SUBMITTED);
      assertThat(solves.phantomSlots()).isZero();
      assertThat(sim.stats().maxInFlight()).isLessThanOrEqualTo(CAP);
    }
  }

  private static long tasksOf(CaptchaAiSimulator sim, String businessKey) {
    List<TaskRecord> tasks = sim.tasks();
    return tasks.stream().filter(t -> SolveProbe.pageUrl(businessKey).equals(t.pageUrl())).count();
  }
}
