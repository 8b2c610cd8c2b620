package com.captchajobs.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

@Tag("unit")
class ThreadCapTest {
  static final String KEY = "capkey00capkey00capkey00capkey00";

  static CaptchaAiSimulator.Builder fixedSolveTime(int threads, Duration solve) {
    return CaptchaAiSimulator.builder().account(KEY, threads).solveTime("turnstile", solve, solve);
  }

  static JsonNode submit(ApiClient client, String page) {
    return client.submitJson(KEY, "method", "turnstile", "sitekey", "0x4", "pageurl", page);
  }

  @Test
  void overCapSubmitIsRejectedWithZeroBalanceUntilAnAnswerIsReady() {
    try (CaptchaAiSimulator sim = fixedSolveTime(2, Duration.ofMillis(300)).build().start()) {
      ApiClient client = new ApiClient(sim.baseUrl());
      assertThat(submit(client, "https://p/1").get("status").asInt()).isEqualTo(1);
      assertThat(submit(client, "https://p/2").get("status").asInt()).isEqualTo(1);
      JsonNode third = submit(client, "https://p/3");
      assertThat(third.get("status").asInt()).isZero();
      assertThat(third.get("request").asString()).isEqualTo("ERROR_ZERO_BALANCE");

      await()
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> submit(client, "https://p/4").get("status").asInt() == 1);
      SimulatorStats stats = sim.stats(KEY);
      assertThat(stats.maxInFlight()).isEqualTo(2);
      assertThat(stats.rejected("ERROR_ZERO_BALANCE")).isGreaterThanOrEqualTo(1);
    }
  }

  @Test
  void noSlotModeRejectsWithNoSlotAvailable() {
    try (CaptchaAiSimulator sim =
        fixedSolveTime(1, Duration.ofSeconds(30))
            .overCapMode(OverCapMode.NO_SLOT_AVAILABLE)
            .build()
            .start()) {
      ApiClient client = new ApiClient(sim.baseUrl());
      submit(client, "https://p/1");
      assertThat(submit(client, "https://p/2").get("request").asString())
          .isEqualTo("ERROR_NO_SLOT_AVAILABLE");
    }
  }

  @Test
  void queueModeAcceptsOverCapAndStartsQueuedTasksWhenAThreadFrees() {
    try (CaptchaAiSimulator sim =
        fixedSolveTime(1, Duration.ofMillis(150)).overCapMode(OverCapMode.QUEUE).build().start()) {
      ApiClient client = new ApiClient(sim.baseUrl());
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        JsonNode accepted = submit(client, "https://q/" + i);
        assertThat(accepted.get("status").asInt()).isEqualTo(1);
        ids.add(accepted.get("request").asString());
      }
      assertThat(sim.stats().inFlight()).isEqualTo(1);
      await()
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(20))
          .until(
              () -> ids.stream().allMatch(id -> client.poll(KEY, id).get("status").asInt() == 1));
      SimulatorStats stats = sim.stats();
      assertThat(stats.maxInFlight()).isEqualTo(1);
      assertThat(stats.solvedTasks()).isEqualTo(3);
      // three back-to-back solves of 150 ms each: the thread was busy for exactly 0.45 s
      assertThat(stats.threadSeconds()).isBetween(0.449, 0.451);
    }
  }

  @Test
  void answersBecomeReadyExactlyAtAcceptancePlusSolveTime() {
    try (CaptchaAiSimulator sim = fixedSolveTime(5, Duration.ofMillis(200)).build().start()) {
      ApiClient client = new ApiClient(sim.baseUrl());
      submit(client, "https://e/1");
      submit(client, "https://e/2");
      await().atMost(Duration.ofSeconds(5)).until(() -> sim.stats().inFlight() == 0);
      SimulatorStats stats = sim.stats();
      List<long[]> series = stats.inFlightSeries();
      assertThat(series).hasSize(5); // start, +1, +1, -1, -1
      assertThat(series.get(3)[0] - series.get(1)[0]).isEqualTo(200);
      assertThat(series.get(4)[0] - series.get(2)[0]).isEqualTo(200);
      assertThat(stats.threadSeconds()).isBetween(0.399, 0.401);
    }
  }

  @Test
  void maxInFlightNeverExceedsTheCapUnderFiftyConcurrentSubmitters() throws Exception {
    try (CaptchaAiSimulator sim = fixedSolveTime(5, Duration.ofMillis(20)).build().start()) {
      ApiClient client = new ApiClient(sim.baseUrl());
      ExecutorService pool = Executors.newFixedThreadPool(50);
      try {
        List<Callable<Integer>> submitters = new ArrayList<>();
        for (int s = 0; s < 50; s++) {
          int submitter = s;
          submitters.add(
              () -> {
                int accepted = 0;
                for (int i = 0; i < 6; i++) {
                  accepted +=
                      submit(client, "https://c/" + submitter + "/" + i).get("status").asInt();
                }
                return accepted;
              });
        }
        long accepted = 0;
        for (Future<Integer> f : pool.invokeAll(submitters)) {
          accepted += f.get();
        }
        SimulatorStats stats = sim.stats(KEY);
        assertThat(stats.acceptedSubmits()).isEqualTo(accepted);
        assertThat(stats.acceptedSubmits() + stats.rejected("ERROR_ZERO_BALANCE")).isEqualTo(300);
        assertThat(stats.maxInFlight()).isEqualTo(5);
        assertThat(stats.inFlightSeries())
            .allSatisfy(point -> assertThat(point[1]).isBetween(0L, 5L));
        await().atMost(Duration.ofSeconds(5)).until(() -> sim.stats().inFlight() == 0);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void threadsCanChangeAtRuntimeAndZeroMeansNoPlan() {
    try (CaptchaAiSimulator sim = fixedSolveTime(1, Duration.ofSeconds(30)).build().start()) {
      ApiClient client = new ApiClient(sim.baseUrl());
      submit(client, "https://r/1");
      assertThat(submit(client, "https://r/2").get("request").asString())
          .isEqualTo("ERROR_ZERO_BALANCE");
      sim.setThreads(KEY, 2);
      assertThat(submit(client, "https://r/3").get("status").asInt()).isEqualTo(1);
      sim.setThreads(KEY, 0);
      assertThat(submit(client, "https://r/4").get("request").asString())
          .isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
      assertThat(client.resJson(KEY, "action", "threadsinfo").get("request").asString())
          .isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
    }
  }
}
