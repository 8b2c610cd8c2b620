package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.SimulatorStats;
import com.captchajobs.simulator.SpendRecord;
import com.captchajobs.simulator.TaskRecord;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The report of a made-up chaos run with a backup: the backup's rows read the backup simulator's
 * records, the primary's figures leave out the solves the backup took, and a run without a backup
 * reports as before.
 */
@Tag("unit")
class BackupFiguresTest {

  static final long T0 = 1_000_000;

  static TaskRecord task(long id, String subject, long acceptedAt, long readyAt) {
    return BackupLedgerTest.task(id, subject, T0 + acceptedAt, T0 + readyAt);
  }

  static RequestRecord get(long at, long taskId) {
    return BackupLedgerTest.get(T0 + at, taskId, "OK");
  }

  static SimulatorStats stats(int maxInFlight, List<long[]> inFlightSeries) {
    return new SimulatorStats(
        0, maxInFlight, 3, Map.of(), 0, Map.of(), 3, 3, 1.0, 1, 1, 1, 1, 10, inFlightSeries);
  }

  static SimulatorStats stats(int maxInFlight) {
    return stats(maxInFlight, List.of());
  }

  /**
   * Outage of the primary 10-20 s; p/a solved at the primary before it, p/b, p/c and p/d (enqueued
   * at 9 s) at the backup's 2 threads: 12-16, 12.5-19 and 16.5-22 s, delivered at 17, 19.5, 23 s.
   */
  static RunData run(String budget) {
    return run(budget, List.of());
  }

  static RunData run(String budget, List<long[]> backupInFlight) {
    BenchOptions o =
        BenchOptions.parse(
            "--mode",
            "chaos",
            "--solves",
            "4",
            "--permanent",
            "0",
            "--backup-threads",
            "2",
            "--backup-price",
            "TURNSTILE:1.45",
            "--backup-budget",
            budget);
    List<TaskRecord> backupTasks =
        List.of(
            task(1, "p/b", 12_000, 16_000),
            task(2, "p/c", 12_500, 19_000),
            task(3, "p/d", 16_500, 22_000));
    RunData.Backup backup =
        new RunData.Backup(
            o.backup(),
            stats(2, backupInFlight),
            backupTasks,
            List.of(get(17_000, 1), get(19_500, 2), get(23_000, 3)),
            List.of(),
            List.of(
                new SpendRecord("back", "2026-12-05", "TURNSTILE", 3, new BigDecimal("0.00435"))));
    Chaos.Events chaos =
        new Chaos.Events(
            List.of(),
            List.of(),
            List.of(new Chaos.Outage(Chaos.Outage.PROVIDER, T0 + 10_000, T0 + 20_000, "")),
            List.of());
    return new RunData(
        o,
        "chaos, backup",
        T0,
        T0 + 25_000,
        false,
        stats(1),
        List.of(task(1, "p/a", 1_000, 5_000)),
        List.of(get(6_000, 1)),
        List.of(),
        Map.of("p/a", T0, "p/b", T0 + 9_000, "p/c", T0 + 9_000, "p/d", T0 + 9_000),
        Map.of(),
        0,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        0,
        -1,
        List.of(),
        List.of(),
        List.of(),
        0,
        0,
        0,
        chaos,
        List.of(),
        Map.of(),
        RunData.Enqueues.NONE,
        backup);
  }

  static Figures.Row row(Figures f, String name) {
    return f.rows().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void theBackupsRowsAreCountedFromTheBackupSimulatorsRecords() {
    Figures f = Figures.of(run("5.00"));

    assertThat(f.value("backup_tasks")).isEqualTo(3);
    assertThat(f.value("backup_fetch_lag_mean"))
        .as("ready 16, 19, 22 s; delivered 17, 19.5, 23 s")
        .isCloseTo(2.5 / 3, within(1e-9));
    // work waits 10-16.5 s; in flight 0, 1 (12-12.5), 2 (12.5-16), 1 (16-16.5): 8 of 13
    assertThat(f.value("backup_outage_util")).isCloseTo(8.0 / 13, within(1e-9));
    assertThat(f.value("backup_outage_waiting_s")).isEqualTo(6.5);
    assertThat(f.value("backup_outage_util_window")).isCloseTo(0.7, within(1e-9));
    assertThat(f.value("backup_first_task_after_outage_s")).isEqualTo(2.0);
    assertThat(row(f, "backup: provider-thread utilisation through the primary's outage").ok())
        .as("61.5 % < 90 %")
        .isFalse();
    assertThat(f.value("outage_completed")).isEqualTo(2);
    assertThat(f.value("outage_completed_backup")).isEqualTo(2);
    assertThat(f.value("backup_spend")).isEqualTo(0.00435);
    assertThat(row(f, "backup: spend").ok()).isTrue();
    assertThat(row(f, "backup: overshoot").ok()).isTrue();
    assertThat(f.value("paid_at_two")).isZero();
    assertThat(row(f, "pages paid at two providers").ok()).isTrue();
    assertThat(Report.scriptLines(f))
        .contains("pages paid at two providers: 0 (not explained: 0)")
        .contains("backup threads in use through the provider outage: 61.5 %");
  }

  @Test
  void aSpendOverTheDailyBudgetIsMissed() {
    Figures f = Figures.of(run("0.004"));
    assertThat(row(f, "backup: spend").ok()).isFalse();
  }

  @Test
  void thePrimarysFiguresLeaveOutTheSolvesTheBackupTook() {
    Figures f = Figures.of(run("5.00"));
    // only p/a waits at the primary (0-1 s); p/b, p/c and p/d have no task there and would
    // otherwise seem to wait from 9 s to the end outside the outage
    assertThat(f.value("waiting_s")).isEqualTo(1.0);
  }

  @Test
  void aRunWithoutABackupHasNoBackupRows() {
    RunData withBackup = run("5.00");
    RunData without = ProviderFiguresTest.withoutEngineRows(withBackup);
    assertThat(without.backup()).isEqualTo(RunData.Backup.NONE);

    Figures f = Figures.of(without);

    assertThat(f.rows())
        .extracting(Figures.Row::name)
        .noneMatch(n -> n.startsWith("backup:"))
        .doesNotContain(
            "pages paid at two providers", "solves completed during the provider outage");
    assertThat(f.value("paid_at_two")).isNaN();
    assertThat(Report.scriptLines(f)).doesNotContain("two providers");
    assertThat(f.value("waiting_s"))
        .as("the primary's records alone: p/b, p/c, p/d seem to wait 9-10 s and 20-25 s")
        .isEqualTo(1.0 + 1.0 + 5.0);
  }
}
