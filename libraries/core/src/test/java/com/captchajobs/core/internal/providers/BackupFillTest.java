package com.captchajobs.core.internal.providers;

import static com.captchajobs.core.internal.providers.BackupProvidersTest.BACKUP_KEY;
import static com.captchajobs.core.internal.providers.BackupProvidersTest.KEY;
import static com.captchajobs.core.internal.providers.BackupProvidersTest.backup;
import static com.captchajobs.core.internal.providers.BackupProvidersTest.paidTwice;
import static com.captchajobs.core.internal.providers.BackupProvidersTest.scaledTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.gate.ProviderLanes;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.KeyPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A backup keeps every one of its threads busy while the primary is down and solves wait
 * (docs/providers.md): a solve whose in.php met server trouble at the primary goes back to the
 * gate's waiting line, where the router hands it to a free backup thread, instead of sitting out a
 * JobRunr backoff. Judged from the backup simulator's own figures.
 */
@Execution(ExecutionMode.CONCURRENT)
class BackupFillTest {

  static final int BACKUP_THREADS = 4;
  static final int SOLVES = 12;

  @Test
  void aBackupTakesEveryFreeThreadOnceThePrimaryIsDownWhileSolvesWait() {
    Map<String, String> times = scaledTimes(20);
    // the production backoff: what solves that met the primary's 502s were kept out by
    times.put("captchaai.max-backoff", SolveSettings.DEFAULT_MAX_BACKOFF.toSeconds() + "s");
    times.put("captchaai.solve-timeout", "2m");
    times.put("captchaai.lease", "3m");
    // the production hold: the 502s' phantoms stay on the primary's slots for the whole test, so
    // the repair pass reads the primary's threadsinfo every pass and each failed reading keeps it
    // judged down, as in a real outage (with the tests' 3 s hold the readings stopped, and once
    // the primary had been quiet for 10 s the one solve left waiting went to probe it instead of
    // to the backup's free thread: the probing rule, which PrimaryDownTest holds)
    times.put(
        "captchaai.lost-submit-hold", SolveSettings.DEFAULT_LOST_SUBMIT_HOLD.toSeconds() + "s");
    try (CaptchaAiSimulator primary =
            CaptchaAiSimulator.builder().account(KEY, 20).timeScale(0.05).build().start();
        CaptchaAiSimulator backupSim =
            CaptchaAiSimulator.builder()
                .name("backup")
                .seed(3)
                .account(BACKUP_KEY, KeyPlan.threads(BACKUP_THREADS))
                .solveTime("turnstile", Duration.ofSeconds(8), Duration.ofSeconds(10))
                .build()
                .start();
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary, KEY, times, List.of(backup(backupSim, BACKUP_THREADS).build()))) {
      SolveProbe solves = node.probe();
      primary.startOutage(Fault.HTML_502);
      // every solve takes a primary thread at once and meets the 502s before the primary is down
      List<UUID> ids = new ArrayList<>();
      for (int i = 0; i < SOLVES; i++) {
        ids.add(solves.turnstile("fill-" + i));
      }

      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> primaryJudgedDown(solves));
      // within seconds every backup thread works on a solve: those whose in.php met a 502 first
      // sit out CaptchaAI's 5 s pause after a server error (up to a quarter more), and the primary
      // is judged down about half a second after its first failure, so the pause is what is left
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> backupSim.stats().inFlight() == BACKUP_THREADS);

      // and while solves still wait (no task anywhere), the backup is full again after each answer
      for (int wave = 2; wave <= SOLVES / BACKUP_THREADS; wave++) {
        int accepted = wave * BACKUP_THREADS;
        await()
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(100))
            .until(
                () ->
                    backupSim.tasks().size() >= accepted
                        && backupSim.stats().inFlight() == BACKUP_THREADS);
      }

      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));
      assertThat(ids)
          .allSatisfy(id -> assertThat(solves.get(id).status()).isEqualTo(SolveStatus.SOLVED));
      assertThat(ids).allSatisfy(id -> assertThat(solves.get(id).provider()).isEqualTo("backup"));
      assertThat(backupSim.stats().maxInFlight()).isEqualTo(BACKUP_THREADS);
      assertThat(backupSim.tasks()).hasSize(SOLVES);
      assertThat(primary.tasks()).isEmpty();
      assertThat(paidTwice(primary, backupSim)).isEmpty();
    }
  }

  /** The gate's own rule ({@link ProviderLanes#primaryDown}), read the way every node reads it. */
  private static boolean primaryJudgedDown(SolveProbe solves) {
    return solves
        .jdbc()
        .queryForObject(
            "SELECT EXISTS (SELECT 1 FROM captchajobs.provider_health WHERE name = ?"
                + " AND failures >= ? AND failing_since <= now() - ? * interval '1 millisecond'"
                + " AND last_failure_at > now() - ? * interval '1 millisecond')",
            Boolean.class,
            ProviderLanes.PRIMARY,
            ProviderLanes.DOWN_FAILURES,
            ProviderLanes.DOWN_AFTER.toMillis(),
            ProviderLanes.PROBE_AFTER.toMillis());
  }
}
