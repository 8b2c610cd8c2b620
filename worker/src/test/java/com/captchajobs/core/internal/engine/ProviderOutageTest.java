package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Fault;
import com.captchajobs.worker.testing.Solves;
import com.captchajobs.worker.testing.WorkerNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A provider outage (every call answered by an HTML 502 page), time scaled: outages of minutes
 * become seconds, and so do the solve timeout, the lost-submit hold, the backoff and the deadline.
 */
class ProviderOutageTest {

  static final String KEY = "outageKeyOUTAGEkeyOUTAGEkey12345";
  static final int CAP = 5;
  static final Duration DEADLINE = Duration.ofSeconds(45);

  static CaptchaAiSimulator sim;
  static WorkerNode node;
  static Solves solves;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, CAP).timeScale(0.05).build().start();
    node =
        WorkerNode.start(
            EmbeddedPostgresSupport.newDatabase(),
            sim.baseUrl(),
            KEY,
            Map.ofEntries(
                Map.entry("captchaai.threads", String.valueOf(CAP)),
                Map.entry("captchaai.first-poll-wait.TURNSTILE", "1s"),
                Map.entry("captchaai.solve-timeout", "20s"),
                Map.entry("captchaai.resume-window", "25s"),
                Map.entry("captchaai.lease", "40s"),
                Map.entry("captchaai.solve-deadline", DEADLINE.toSeconds() + "s"),
                Map.entry("captchaai.lost-submit-hold", "3s"),
                Map.entry("captchaai.max-backoff", "2s"),
                Map.entry("captchaai.stuck-after", "2s"),
                Map.entry("captchaai.reconcile-interval", "1s")));
    solves = new Solves(node);
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  @Test
  void afterAProviderOutageEverySolveIsSolvedWithinTheRecoveryWindowAtMostTwiceSubmitted() {
    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      ids.add(solves.turnstile("outage-" + i));
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> sim.stats().acceptedSubmits() >= 3);
    sim.startOutage(Fault.HTML_502);
    await().pollDelay(Duration.ofSeconds(12)).atMost(Duration.ofSeconds(13)).until(() -> true);
    sim.endOutage();

    long recovered = System.nanoTime();
    await()
        .atMost(Duration.ofSeconds(40))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));
    long millis = (System.nanoTime() - recovered) / 1_000_000;

    System.out.println(
        "PROVIDER OUTAGE 12 s, 15 solves, cap "
            + CAP
            + ": all final "
            + millis
            + " ms after recovery; submits by page "
            + sim.stats().submitsByPageUrl()
            + "; max in flight "
            + sim.stats().maxInFlight());
    assertThat(ids).allMatch(id -> solves.get(id).status() == SolveState.SOLVED);
    assertThat(sim.stats().submitsByPageUrl().values()).allMatch(n -> n <= 2);
    assertThat(sim.stats().maxInFlight()).isLessThanOrEqualTo(CAP);
  }

  @Test
  void aSolveThatCannotFinishBeforeItsDeadlineEndsFailedWithItsOwnCodeAsADeadJob() {
    sim.startOutage(Fault.HTML_502);
    try {
      UUID id = solves.turnstile("outage-deadline");
      Solve failed = solves.awaitStatus(id, SolveState.FAILED, DEADLINE.plusSeconds(30));

      assertThat(failed.errorCode()).isEqualTo(EngineSettings.DEADLINE_EXCEEDED);
      assertThat(failed.errorClass()).isEqualTo(ErrorClass.DEADLINE);
      UUID jobId =
          solves
              .jdbc()
              .queryForObject("SELECT job_id FROM captchajobs.solve WHERE id = ?", UUID.class, id);
      StorageProvider storage = node.bean(StorageProvider.class);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> storage.getJobById(jobId).getState() == StateName.FAILED);
      assertThat(storage.getJobById(jobId).getLabels()).contains("error:DEADLINE_EXCEEDED");
    } finally {
      sim.endOutage();
    }
  }
}
