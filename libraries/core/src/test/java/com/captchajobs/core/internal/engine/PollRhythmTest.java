package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.stats.Percentiles;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.FleetFigures;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.SimulatorStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Measures the poll rhythm on a short run: how late each res.php call is against its intended
 * instant, with JobRunr's 5 s poll interval in between. Prints the figures; the threshold belongs
 * to the benchmark.
 */
class PollRhythmTest {

  static final String KEY = "rhythmKeyRHYTHMkeyRHYTHMkey12345";

  @Test
  void pollsOfSolvesNeedingSeveralPollsAreMeasuredAgainstTheirIntendedInstants() {
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder()
                .account(KEY, 20)
                .solveTime("turnstile", Duration.ofSeconds(6), Duration.ofSeconds(16))
                .build()
                .start();
        EngineNode node =
            EngineNode.onFreshDatabase(
                sim,
                KEY,
                Map.of(
                    "captchaai.threads",
                    "20",
                    "captchaai.first-poll-wait.TURNSTILE",
                    "5s",
                    "captchaai.learn-after-solves",
                    "1000"))) {
      SolveProbe solves = node.probe();
      List<UUID> ids = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ids.add(solves.turnstile("rhythm-" + i));
      }
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(250))
          .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));

      List<Double> lateness = FleetFigures.pollLateness(solves.jdbc());
      SimulatorStats stats = sim.stats();
      assertThat(ids).allMatch(id -> solves.get(id).status() == SolveStatus.SOLVED);
      assertThat(lateness).hasSizeGreaterThan(ids.size());
      System.out.printf(
          "[rhythm] %d polls for %d solves: lateness p50 %.3f s, p95 %.3f s, max %.3f s%n",
          lateness.size(),
          ids.size(),
          Percentiles.of(lateness, 0.5),
          Percentiles.of(lateness, 0.95),
          Percentiles.of(lateness, 1.0));
      System.out.printf(
          "[rhythm] in.php per solve %.2f, res.php per solve %.2f, JobRunr jobs per solve %.2f,"
              + " fetch lag mean %.2f s p95 %.2f s%n",
          (double) stats.acceptedSubmits() / ids.size(),
          (double) stats.resCalls() / ids.size(),
          (double) FleetFigures.jobrunrJobs(solves.jdbc()) / ids.size(),
          stats.fetchLagMeanSeconds(),
          stats.fetchLagP95Seconds());
    }
  }
}
