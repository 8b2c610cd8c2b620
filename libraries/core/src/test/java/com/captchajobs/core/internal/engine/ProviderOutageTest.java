package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.steps.SolveDeadline;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Fault;
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
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A provider outage (every call answered by an HTML 502 page), time scaled: outages of minutes
 * become seconds, and so do the solve timeout, the lost-submit hold, the backoff and the deadline.
 * The scenario on two worker JVMs and an app node is the worker module's {@code
 * FleetThroughAProviderOutageTest}.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProviderOutageTest {

  static final String KEY = "outageKeyOUTAGEkeyOUTAGEkey12345";
  static final int CAP = 5;
  static final Duration DEADLINE = Duration.ofSeconds(45);

  static CaptchaAiSimulator sim;
  static EngineNode node;
  static SolveProbe solves;

  /** The engine's times, scaled: a 4-minute outage becomes 12 s. */
  static Map<String, String> scaledTimes() {
    return Map.ofEntries(
        Map.entry("captchaai.threads", String.valueOf(CAP)),
        Map.entry("captchaai.first-poll-wait.TURNSTILE", "1s"),
        Map.entry("captchaai.solve-timeout", "20s"),
        Map.entry("captchaai.resume-window", "25s"),
        Map.entry("captchaai.lease", "40s"),
        Map.entry("captchaai.solve-deadline", DEADLINE.toSeconds() + "s"),
        Map.entry("captchaai.lost-submit-hold", "3s"),
        Map.entry("captchaai.max-backoff", "2s"),
        Map.entry("captchaai.stuck-after", "2s"),
        Map.entry("captchaai.reconcile-interval", "1s"));
  }

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, CAP).timeScale(0.05).build().start();
    node = EngineNode.onFreshDatabase(sim, KEY, scaledTimes());
    solves = node.probe();
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  @Test
  void theFirstSubmitComesWithinTenSecondsOfTheProvidersRecoveryAndNeverOvershootsTheCap() {
    try (CaptchaAiSimulator provider =
        CaptchaAiSimulator.builder().account(KEY, CAP).timeScale(0.05).build().start()) {
      // The production holds: a failed in.php keeps its slot a minute, backoff up to a minute.
      Map<String, String> props = new java.util.HashMap<>(scaledTimes());
      props.put("captchaai.lost-submit-hold", "60s");
      props.put("captchaai.max-backoff", "60s");
      props.put("captchaai.reconcile-interval", "2s");
      props.put("captchaai.solve-deadline", "10m");
      props.put("captchaai.provider-check-interval", "1h");
      try (EngineNode worker = EngineNode.onFreshDatabase(provider, KEY, props)) {
        SolveProbe fleet = worker.probe();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          ids.add(fleet.turnstile("restart-" + i));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> provider.stats().acceptedSubmits() >= 5);
        provider.startOutage(Fault.HTML_502);
        // until every slot is held: by a submitted task, or by a phantom of a failed in.php call
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> fleet.phantomSlots() >= 1 && held(fleet) == CAP);
        long acceptedBefore = provider.stats().acceptedSubmits();
        provider.endOutage();
        long recovered = System.nanoTime();

        await()
            .atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> provider.stats().acceptedSubmits() > acceptedBefore);
        double seconds = (System.nanoTime() - recovered) / 1e9;
        await()
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> ids.stream().allMatch(id -> fleet.get(id).status().isFinal()));

        System.out.printf(
            "PROVIDER BACK -> FIRST SUBMIT %.1f s (every slot held when it came back, some by"
                + " phantoms of failed in.php calls); max in flight %d%n",
            seconds, provider.stats().maxInFlight());
        assertThat(ids).allMatch(id -> fleet.get(id).status() == SolveStatus.SOLVED);
        assertThat(provider.stats().maxInFlight()).isLessThanOrEqualTo(CAP);
      }
    }
  }

  private static int held(SolveProbe fleet) {
    return fleet
        .jdbc()
        .queryForObject(
            "SELECT count(*) FROM captchajobs.gate_slot WHERE solve_id IS NOT NULL"
                + " AND lease_until > now()",
            Integer.class);
  }

  @Test
  void aSolveThatCannotFinishBeforeItsDeadlineEndsFailedWithItsOwnCodeAsADeadJob() {
    sim.startOutage(Fault.HTML_502);
    try {
      UUID id = solves.turnstile("outage-deadline");
      Solve failed = solves.awaitStatus(id, SolveStatus.FAILED, DEADLINE.plusSeconds(30));

      assertThat(failed.errorCode()).isEqualTo(SolveDeadline.DEADLINE_EXCEEDED);
      assertThat(failed.errorClass()).isEqualTo(ErrorClass.DEADLINE);
      UUID jobId =
          solves
              .jdbc()
              .queryForObject("SELECT job_id FROM captchajobs.solve WHERE id = ?", UUID.class, id);
      StorageProvider storage = node.part(StorageProvider.class);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> storage.getJobById(jobId).getState() == StateName.FAILED);
      assertThat(storage.getJobById(jobId).getLabels()).contains("error:DEADLINE_EXCEEDED");
    } finally {
      sim.endOutage();
    }
  }
}
