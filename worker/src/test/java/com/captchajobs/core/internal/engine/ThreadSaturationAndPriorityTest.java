package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveState;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.Solves;
import com.captchajobs.worker.testing.WorkerNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.Test;

/** Waiting for a thread: no failure, no retry spent, priority first. */
class ThreadSaturationAndPriorityTest {

  static final String KEY = "saturationKeySATURATIONkey123456";

  @Test
  void zeroBalanceNeitherFailsTheSolveNorSpendsARetry() {
    // Another client uses the same key: the provider has 1 thread while our cap says 2.
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder()
                .account(KEY, 1)
                .solveTime("turnstile", Duration.ofSeconds(2), Duration.ofSeconds(2))
                .build()
                .start();
        WorkerNode node =
            WorkerNode.onFreshDatabase(
                sim,
                KEY,
                Map.of(
                    "captchaai.threads",
                    "2",
                    "captchaai.preflight",
                    "false",
                    "captchaai.first-poll-wait.TURNSTILE",
                    "2s",
                    "captchaai.thread-wait",
                    "1s"))) {
      Solves solves = new Solves(node);
      UUID a = solves.turnstile("saturation-a");
      UUID b = solves.turnstile("saturation-b");
      Solve solvedA = solves.awaitStatus(a, SolveState.SOLVED);
      Solve solvedB = solves.awaitStatus(b, SolveState.SOLVED);

      assertThat(sim.stats().rejected("ERROR_ZERO_BALANCE")).isPositive();
      assertThat(solvedA.submits() + solvedB.submits()).isEqualTo(2);
      StorageProvider jobs = node.bean(StorageProvider.class);
      for (UUID id : List.of(a, b)) {
        assertThat(jobs.getJobById(SolveJobs.enqueueJobId(id)).getJobStates())
            .noneMatch(s -> s instanceof FailedState);
      }
    }
  }

  @Test
  void aHighPrioritySolveEnqueuedBehindABacklogIsSubmittedBeforeIt() {
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder()
                .account(KEY, 5)
                .solveTime("turnstile", Duration.ofMillis(800), Duration.ofMillis(800))
                .build()
                .start();
        WorkerNode node =
            WorkerNode.onFreshDatabase(
                sim,
                KEY,
                Map.of("captchaai.threads", "1", "captchaai.first-poll-wait.TURNSTILE", "1s"))) {
      Solves solves = new Solves(node);
      SolveEnqueuer enqueuer = node.bean(SolveEnqueuer.class);
      List<UUID> backlog = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        backlog.add(solves.turnstile("backlog-" + i));
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  backlog.stream()
                          .filter(id -> solves.get(id).status() == SolveState.WAITING_FOR_THREAD)
                          .count()
                      >= 3);
      UUID urgent =
          enqueuer
              .enqueue(
                  "checkout-urgent",
                  CaptchaType.TURNSTILE,
                  Map.of(
                      "sitekey",
                      "0x4AAAAAAADnPIDROrmt1Wwj",
                      "pageUrl",
                      Solves.pageUrl("checkout-urgent")),
                  10,
                  null)
              .id();
      // Once the urgent solve has reached the queue (parked, or straight through), every backlog
      // solve still waiting then must be submitted after it.
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> solves.get(urgent).status() != SolveState.QUEUED);
      List<UUID> waitingWhenUrgentQueued =
          backlog.stream()
              .filter(id -> solves.get(id).status() == SolveState.WAITING_FOR_THREAD)
              .toList();

      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  backlog.stream().allMatch(id -> solves.get(id).status().isFinal())
                      && solves.get(urgent).status().isFinal());
      Solve first = solves.get(urgent);
      assertThat(waitingWhenUrgentQueued).isNotEmpty();
      assertThat(waitingWhenUrgentQueued)
          .allSatisfy(id -> assertThat(solves.get(id).submittedAt()).isAfter(first.submittedAt()));
    }
  }
}
