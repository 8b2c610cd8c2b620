package com.captchajobs.core.internal.providers;

import static com.captchajobs.core.internal.providers.BackupProvidersTest.KEY;
import static com.captchajobs.core.internal.providers.BackupProvidersTest.backup;
import static com.captchajobs.core.internal.providers.BackupProvidersTest.backupSim;
import static com.captchajobs.core.internal.providers.BackupProvidersTest.paidTwice;
import static com.captchajobs.core.internal.providers.BackupProvidersTest.scaledTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.KeyPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A lost in.php reply at a backup leaves a phantom on the backup's slot, which the backup's own
 * threadsinfo frees early (docs/providers.md), exactly as the primary's frees the primary's: at
 * once when the backup shows no task for it, never while its task may still run. The primary is
 * down (HTML 502 to everything) so that solves go to the backup; the backup's cap is 1 on a plan of
 * 3, so that a second task in flight would be accepted and seen in its records.
 */
@Execution(ExecutionMode.CONCURRENT)
class BackupPhantomTest {

  /** Far longer than any await below: only the backup's threadsinfo can free the phantom. */
  static final String HOLD = "3m";

  private static Map<String, String> times() {
    Map<String, String> times = scaledTimes(5);
    times.put("captchaai.lost-submit-hold", HOLD);
    times.put("captchaai.provider-check-interval", "1h"); // only the repair pass reads threadsinfo
    return times;
  }

  /** Phantoms held on the backup's slots. */
  private static int backupPhantoms(SolveProbe solves) {
    return solves
        .jdbc()
        .queryForObject(
            "SELECT count(*) FROM captchajobs.gate_slot WHERE provider = 'backup' AND phantom"
                + " AND solve_id IS NOT NULL AND lease_until > now()",
            Integer.class);
  }

  @Test
  void aLostInPhpReplyAtTheBackupFreesItsSlotOnceTheBackupShowsNoTaskForItLongBeforeTheHold() {
    try (CaptchaAiSimulator primary =
            CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
        CaptchaAiSimulator backupSim = backupSim(KeyPlan.threads(3));
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary, KEY, times(), List.of(backup(backupSim, 1).build()))) {
      SolveProbe solves = node.probe();
      primary.startOutage(Fault.HTML_502);
      backupSim.injectNext(Endpoint.IN, Fault.HTML_502); // no task made, the reply lost
      UUID id = solves.turnstile("lost-at-backup");

      await()
          .atMost(Duration.ofSeconds(45))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> solves.get(id).status() == SolveStatus.SOLVED);

      assertThat(solves.get(id).provider()).isEqualTo("backup");
      assertThat(backupSim.tasks())
          .as("the 502 made no task; the solve's second in.php did")
          .hasSize(1);
      assertThat(backupSim.stats().maxInFlight()).isEqualTo(1);
      assertThat(primary.tasks()).isEmpty();
      assertThat(backupPhantoms(solves)).isZero(); // the primary's keep theirs: it is down
    }
  }

  @Test
  void aPhantomIsJudgedByAReadingTakenSoonAfterItWasMadeWithoutWaitingForTheRepairPass() {
    Map<String, String> times = times();
    times.put("captchaai.reconcile-interval", "1h"); // no pass would judge it within the test
    try (CaptchaAiSimulator primary =
            CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
        CaptchaAiSimulator backupSim = backupSim(KeyPlan.threads(3));
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary, KEY, times, List.of(backup(backupSim, 1).build()))) {
      SolveProbe solves = node.probe();
      primary.startOutage(Fault.HTML_502);
      backupSim.injectNext(Endpoint.IN, Fault.HTML_502); // no task made, the reply lost
      UUID id = solves.turnstile("judged-soon");

      // the 502's phantom held the backup's only slot; the solve had to wait for it to be freed
      solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(20));

      assertThat(solves.get(id).provider()).isEqualTo("backup");
      assertThat(backupSim.tasks()).hasSize(1);
      assertThat(backupSim.stats().maxInFlight()).isEqualTo(1);
      assertThat(backupPhantoms(solves)).isZero();
    }
  }

  @Test
  void aPhantomAtTheBackupWhoseTaskRunsKeepsTheBackupsCapUntilThatTaskEnds() {
    // A's in.php at the backup makes a task of 12 s whose reply is lost: the backup shows it
    // working, so its phantom stays until the task ends; B and A wait, one task at a time.
    try (CaptchaAiSimulator primary =
            CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
        CaptchaAiSimulator backupSim =
            CaptchaAiSimulator.builder()
                .name("backup")
                .seed(4)
                .account(BackupProvidersTest.BACKUP_KEY, KeyPlan.threads(3))
                .solveTime("turnstile", Duration.ofSeconds(12), Duration.ofSeconds(12))
                .build()
                .start();
        EngineNode node =
            EngineNode.onFreshDatabase(
                primary, KEY, times(), List.of(backup(backupSim, 1).build()))) {
      SolveProbe solves = node.probe();
      primary.startOutage(Fault.HTML_502);
      backupSim.injectNext(Endpoint.IN, Fault.LOST_RESPONSE);
      UUID a = solves.turnstile("running-at-backup-a");
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> backupSim.tasks().size() == 1);
      UUID b = solves.turnstile("running-at-backup-b");

      for (UUID id : List.of(a, b)) {
        solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(90));
      }

      assertThat(backupSim.stats().maxInFlight())
          .as("the lost reply's task kept its slot while it ran")
          .isEqualTo(1);
      assertThat(backupSim.tasks()).as("A's lost task, then A's and B's").hasSize(3);
      assertThat(backupPhantoms(solves)).isZero();
      assertThat(paidTwice(primary, backupSim)).isEmpty();
    }
  }
}
