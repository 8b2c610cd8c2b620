package com.captchajobs.worker.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Fault;
import com.captchajobs.worker.testing.WorkerNode;
import com.captchajobs.worker.testing.WorkerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The provider outage on a fleet: 30 solves on two worker JVMs (the worker jar) and an app
 * node, every call answered by an HTML 502 page for a while, time scaled as in core's {@code
 * ProviderOutageTest}: outages of minutes become seconds, and so do the solve timeout, the
 * lost-submit hold, the backoff and the deadline.
 */
class FleetThroughAProviderOutageTest {

  static final String KEY = "outageKeyOUTAGEkeyOUTAGEkey12345";
  static final int CAP = 5;
  static final Duration DEADLINE = Duration.ofSeconds(45);

  /** Four minutes of outage at the scale of the engine's times here (1 : 20). */
  static final Duration OUTAGE = Duration.ofSeconds(12);

  /** Five minutes after recovery, at the same scale, plus slack for two JVMs on a busy machine. */
  static final Duration RECOVERY = Duration.ofSeconds(60);

  /** The engine's times, scaled: a 4-minute outage becomes 12 s. */
  static Map<String, String> scaledTimes() {
    return Map.ofEntries(
        Map.entry("captchaai.threads", String.valueOf(CAP)),
        Map.entry("captchaai.first-poll-wait.TURNSTILE", "1s"),
        Map.entry("captchaai.solve-timeout", "20s"),
        Map.entry("captchaai.lease", "40s"),
        Map.entry("captchaai.solve-deadline", DEADLINE.toSeconds() + "s"),
        Map.entry("captchaai.lost-submit-hold", "3s"),
        Map.entry("captchaai.max-backoff", "2s"),
        Map.entry("captchaai.stuck-after", "2s"),
        Map.entry("captchaai.reconcile-interval", "1s"));
  }

  @Test
  void
      afterAProviderOutageEverySolveOnTwoWorkerJvmsIsSolvedWithinTheRecoveryWindowAtMostTwiceSubmitted() {
    try (CaptchaAiSimulator provider =
        CaptchaAiSimulator.builder().account(KEY, CAP).timeScale(0.05).build().start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      List<WorkerProcess> workers = new ArrayList<>();
      try (WorkerNode app =
          WorkerNode.start(
              db, provider.baseUrl(), KEY, Map.of("captchajobs.worker.enabled", "false"))) {
        for (int i = 0; i < 2; i++) {
          workers.add(
              WorkerProcess.start("outage-w" + i, db, provider.baseUrl(), KEY, scaledTimes()));
        }
        workers.forEach(WorkerProcess::awaitUp);
        SolveProbe fleet = app.probe();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          ids.add(fleet.turnstile("outage-" + i));
        }
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> provider.stats().acceptedSubmits() >= 10);
        provider.startOutage(Fault.HTML_502);
        await().pollDelay(OUTAGE).atMost(OUTAGE.plusSeconds(1)).until(() -> true);
        provider.endOutage();

        long recovered = System.nanoTime();
        await()
            .atMost(RECOVERY)
            .pollInterval(Duration.ofMillis(200))
            .until(() -> ids.stream().allMatch(id -> fleet.get(id).status().isFinal()));
        long millis = (System.nanoTime() - recovered) / 1_000_000;

        System.out.println(
            "PROVIDER OUTAGE "
                + OUTAGE.toSeconds()
                + " s, 30 solves, 2 worker JVMs, cap "
                + CAP
                + ": all final "
                + millis
                + " ms after recovery; submits by page "
                + provider.stats().submitsByPageUrl()
                + "; max in flight "
                + provider.stats().maxInFlight());
        assertThat(ids).allMatch(id -> fleet.get(id).status() == SolveStatus.SOLVED);
        assertThat(provider.stats().submitsByPageUrl().values()).allMatch(n -> n <= 2);
        assertThat(provider.stats().maxInFlight()).isLessThanOrEqualTo(CAP);
      } finally {
        workers.forEach(WorkerProcess::close);
      }
    }
  }
}
