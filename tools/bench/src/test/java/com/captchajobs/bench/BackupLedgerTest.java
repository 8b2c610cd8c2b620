package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.SpendRecord;
import com.captchajobs.simulator.TaskRecord;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The figures of a chaos run with a backup, on made-up records of two simulators: the backup's
 * threads through the primary's outage, the solves completed in it, the spend, and the pages paid
 * at two providers. Task ids repeat across the two simulators, as they may in a run.
 */
@Tag("unit")
class BackupLedgerTest {

  static final Map<String, Duration> LIFETIMES = Map.of("turnstile", Duration.ofSeconds(270));
  static final Duration SOLVE_TIMEOUT = Duration.ofSeconds(120);

  static TaskRecord task(long id, String subject, long acceptedAt, long readyAt, String outcome) {
    return new TaskRecord(
        id,
        "turnstile",
        subject,
        acceptedAt,
        acceptedAt,
        readyAt,
        readyAt - acceptedAt,
        0,
        false,
        subject,
        outcome);
  }

  static TaskRecord task(long id, String subject, long acceptedAt, long readyAt) {
    return task(id, subject, acceptedAt, readyAt, "SOLVED");
  }

  static RequestRecord in(long at, long taskId, String fault) {
    return new RequestRecord(at, RequestRecord.IN, null, "benc…", taskId, "OK", fault);
  }

  static RequestRecord get(long at, long taskId, String outcome) {
    return new RequestRecord(at, RequestRecord.RES, "get", "benc…", taskId, outcome, null);
  }

  static BackupLedger.Provider provider(
      String name, List<TaskRecord> tasks, List<RequestRecord> requests) {
    return new BackupLedger.Provider(name, tasks, requests, List.of());
  }

  @Test
  void theBackupsThreadsThroughTheOutageAreItsTasksInFlightCappedAtItsThreads() {
    // outage 10-20 s, 2 backup threads; p/d never gets a task, so work waits throughout
    List<TaskRecord> backup =
        List.of(
            task(1, "p/a", 12_000, 20_000),
            task(2, "p/b", 14_000, 20_000),
            task(3, "p/c", 16_000, 18_000));
    Map<String, Long> enqueued = Map.of("p/a", 0L, "p/b", 0L, "p/c", 0L, "p/d", 0L);

    BackupThrough.Through t =
        BackupThrough.through(backup, backup, enqueued, 2, 10_000, 20_000, 30_000);

    // in flight 0 (10-12), 1 (12-14), 2 (14-16), 3 capped to 2 (16-18), 2 (18-20): 14 of 20
    assertThat(t.windowSeconds()).isEqualTo(10.0);
    assertThat(t.waitingSeconds()).isEqualTo(10.0);
    assertThat(t.util()).isCloseTo(0.70, within(1e-9));
    assertThat(t.utilWindow()).isCloseTo(0.70, within(1e-9));
    assertThat(t.firstAcceptedAfter()).isEqualTo(2.0);
  }

  @Test
  void timeWithoutWorkWaitingAtEitherProviderIsLeftOutOfTheBackupsUtilisation() {
    // p/a waits 10-12 s, then runs at the backup; p/b runs at the primary through the outage
    List<TaskRecord> backup = List.of(task(1, "p/a", 12_000, 20_000));
    List<TaskRecord> primary = List.of(task(1, "p/b", 5_000, 25_000));
    List<TaskRecord> all = List.of(backup.get(0), primary.get(0));

    BackupThrough.Through t =
        BackupThrough.through(backup, all, Map.of("p/a", 0L, "p/b", 0L), 2, 10_000, 20_000, 30_000);

    assertThat(t.waitingSeconds()).as("only 10-12 s had a solve with no task").isEqualTo(2.0);
    assertThat(t.util()).isEqualTo(0.0);
    assertThat(t.utilWindow()).as("1 of 2 threads for 8 of 10 s").isCloseTo(0.4, within(1e-9));

    BackupThrough.Through none =
        BackupThrough.through(List.of(), primary, Map.of("p/b", 0L), 2, 10_000, 20_000, 30_000);
    assertThat(none.util()).as("no work waited: not measurable").isNaN();
    assertThat(none.firstAcceptedAfter()).isNaN();
  }

  @Test
  void aSolveBoundToAnAnswerReadyAtThePrimaryButNotDeliveredDoesNotWaitForTheBackup() {
    // outage 10-20 s: p/a's task at the primary is ready at 11 s and its answer reaches the
    // engine only when the primary heals (22 s); its token then too old, p/a is submitted again
    // at 23 s. Until 22 s that task may still answer: the backup may not take p/a.
    TaskRecord first = task(1, "p/a", 5_000, 11_000);
    TaskRecord again = task(2, "p/a", 23_000, 28_000);
    List<TaskRecord> backup = List.of(task(1, "p/c", 10_000, 14_000));
    List<TaskRecord> all = List.of(first, again, backup.get(0));
    Map<String, Long> enqueued = Map.of("p/a", 0L, "p/c", 10_000L);
    BackupLedger.Provider atBackup = provider("backup", backup, List.of(get(14_100, 1, "OK")));

    BackupThrough.Through counted =
        BackupThrough.through(backup, all, enqueued, 1, 10_000, 20_000, 30_000);
    assertThat(counted.waitingSeconds()).as("p/a counted as waiting 11-20 s").isEqualTo(9.0);

    Function<List<RequestRecord>, BackupThrough.Through> withPrimaryGets =
        gets ->
            BackupThrough.through(
                backup,
                all,
                BackupThrough.awaitingDelivery(
                    List.of(provider("captchaai", List.of(first, again), gets), atBackup), 30_000),
                enqueued,
                1,
                10_000,
                20_000,
                30_000);

    BackupThrough.Through bound = withPrimaryGets.apply(List.of(get(22_000, 1, "OK")));
    assertThat(bound.waitingSeconds()).as("nothing the backup could take").isEqualTo(0.0);
    assertThat(bound.util()).isNaN();

    BackupThrough.Through free = withPrimaryGets.apply(List.of(get(16_000, 1, "OK")));
    assertThat(free.waitingSeconds()).as("p/a waits from its delivery at 16 s").isEqualTo(4.0);
    assertThat(free.util()).isEqualTo(0.0);

    // returned at 12 s to a worker killed before storing it, and again at 22 s: the engine kept
    // the second, so p/a stays bound until then (the old rule had it wait from 12 s)
    BackupThrough.Through killed =
        withPrimaryGets.apply(List.of(get(12_000, 1, "OK"), get(22_000, 1, "OK")));
    assertThat(killed.waitingSeconds()).as("nothing the backup could take").isEqualTo(0.0);
  }

  @Test
  void aSolveCompletedDuringTheOutageIsOneWhoseAnswerWasFirstDeliveredInItAtItsOwnProvider() {
    // the same task id 1 at both simulators: each is matched with its own request log only
    BackupLedger.Provider primary =
        provider("captchaai", List.of(task(1, "p/a", 1_000, 8_000)), List.of(get(9_000, 1, "OK")));
    BackupLedger.Provider backup =
        provider(
            "backup",
            List.of(
                task(1, "p/b", 11_000, 14_000),
                task(2, "p/c", 12_000, 19_500),
                task(3, "p/d", 13_000, 18_000)),
            List.of(
                get(15_000, 1, "OK"),
                get(21_000, 2, "OK"),
                get(16_000, 3, "CAPCHA_NOT_READY"),
                get(19_000, 3, "OK")));

    Map<String, Long> done = BackupLedger.completedIn(List.of(backup, primary), 10_000, 20_000);

    assertThat(done).containsExactly(Map.entry("backup", 2L), Map.entry("captchaai", 0L));
  }

  @Test
  void theSpendIsTheBackupsOwnRowsAddedUpByTypeAndByUtcDay() {
    List<SpendRecord> rows =
        List.of(
            new SpendRecord("back", "2026-12-05", "TURNSTILE", 100, new BigDecimal("0.145")),
            new SpendRecord("back", "2026-12-05", "IMAGE", 10, new BigDecimal("0.005")),
            new SpendRecord("back", "2026-12-06", "TURNSTILE", 20, new BigDecimal("0.029")));

    BackupLedger.Spend s = BackupLedger.spend(rows);

    assertThat(s.total()).isEqualByComparingTo("0.179");
    assertThat(s.tasks()).isEqualTo(130);
    assertThat(s.byType().get("TURNSTILE")).isEqualByComparingTo("0.174");
    assertThat(s.byType().get("IMAGE")).isEqualByComparingTo("0.005");
    assertThat(s.maxDay()).isEqualByComparingTo("0.150");
    assertThat(BackupLedger.spend(List.of()).maxDay()).isEqualByComparingTo("0");
  }

  @Test
  void aPageIsPaidAtTwoProvidersWhenTheSecondAcceptedItWhileTheFirstCouldStillAnswer() {
    BackupLedger.Provider primary =
        provider(
            "captchaai",
            List.of(
                // a: in flight at the primary, asked about, when the backup took it
                task(1, "p/a", 1_000, 40_000),
                // b: its in.php reply was lost, the engine never knew it
                task(2, "p/b", 2_000, 9_000),
                // c: it answered an error code, delivered before the backup took it
                task(3, "p/c", 3_000, 5_000, "ERROR_CAPTCHA_UNSOLVABLE"),
                // d: no answer within the solve timeout
                task(4, "p/d", 0, 200_000),
                // e: twice at the primary, never at the backup: not this figure's
                task(5, "p/e", 1_000, 3_000),
                task(6, "p/e", 4_000, 9_000),
                // f: taken by the primary while the backup's task still ran
                task(7, "p/f", 52_000, 58_000)),
            List.of(
                in(1_000, 1, null),
                get(4_000, 1, "CAPCHA_NOT_READY"),
                in(2_000, 2, "LOST_RESPONSE"),
                get(6_000, 3, "ERROR_CAPTCHA_UNSOLVABLE"),
                get(10_000, 4, "CAPCHA_NOT_READY")));
    BackupLedger.Provider backup =
        provider(
            "backup",
            List.of(
                task(1, "p/a", 5_000, 9_000),
                task(2, "p/b", 8_000, 12_000),
                task(3, "p/c", 7_000, 12_000),
                task(4, "p/d", 130_000, 134_000),
                task(7, "p/f", 50_000, 60_000)),
            List.of(
                // the backup's own task 1 forgotten: says nothing of the primary's task 1
                get(3_000, 1, "ERROR_WRONG_CAPTCHA_ID"), get(55_000, 7, "CAPCHA_NOT_READY")));

    List<BackupLedger.TwoProviders> two =
        BackupLedger.paidAtTwo(
            List.of(primary, backup), List.of(), Map.of("p/a", "key-a"), LIFETIMES, SOLVE_TIMEOUT);

    assertThat(two)
        .extracting(t -> t.pair().businessKey(), t -> t.first(), t -> t.second(), t -> t.cause())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "key-a", "captchaai", "backup", ProviderLedger.Cause.UNEXPLAINED),
            org.assertj.core.groups.Tuple.tuple(
                "p/b", "captchaai", "backup", ProviderLedger.Cause.LOST_REPLY),
            org.assertj.core.groups.Tuple.tuple(
                "p/f", "backup", "captchaai", ProviderLedger.Cause.UNEXPLAINED));
    assertThat(two.get(0).describe()).startsWith("captchaai then backup, key-a: task 1 then 1");
  }
}
