package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.TaskRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The figures counted from the provider's side: res.php spacing, paid duplicates and their causes,
 * provider threads in use and idle, and what an outage window looked like at the provider.
 */
@Tag("unit")
class ProviderLedgerTest {

  static final Map<String, Duration> LIFETIMES = Map.of("turnstile", Duration.ofSeconds(270));
  static final Duration SOLVE_TIMEOUT = Duration.ofSeconds(120);

  static TaskRecord task(long id, String subject, long acceptedAt, long readyAt) {
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
        "SOLVED");
  }

  static RequestRecord in(long at, long taskId, String fault) {
    return new RequestRecord(at, RequestRecord.IN, null, "benc…", taskId, "OK", fault);
  }

  static RequestRecord get(long at, long taskId, String outcome) {
    return new RequestRecord(at, RequestRecord.RES, "get", "benc…", taskId, outcome, null);
  }

  static ProviderLedger.Duplicates duplicates(
      List<TaskRecord> tasks, List<RequestRecord> requests, List<Long> kills) {
    return ProviderLedger.duplicates(
        tasks, requests, List.of(), kills, Map.of("p/a", "key-a"), LIFETIMES, SOLVE_TIMEOUT);
  }

  @Test
  void theZeroLagLimitSchedulesTheProvidersSolveTimesOnCThreadsInAcceptanceOrder() {
    // solve times 4, 3, 2 and 5 s on 2 threads: 0-4 and 0-3, 3-5, then 4-9 on the first free
    List<TaskRecord> tasks =
        List.of(
            task(1, "a", 1_000, 5_000),
            task(2, "b", 1_001, 4_001),
            task(3, "c", 1_002, 3_002),
            task(4, "d", 1_003, 6_003));
    assertThat(ProviderLedger.zeroLagLimitSeconds(tasks, 2)).isEqualTo(9.0);
    assertThat(ProviderLedger.zeroLagLimitSeconds(tasks, 4)).isEqualTo(5.0);
  }

  @Test
  void aSecondGetOfOneTaskUnderFiveSecondsAfterTheFirstIsCounted() {
    var spacing =
        ProviderLedger.spacing(
            List.of(
                get(1_000, 7, "CAPCHA_NOT_READY"),
                get(6_000, 7, "CAPCHA_NOT_READY"),
                get(9_500, 7, "OK"),
                get(2_000, 8, "OK"),
                get(3_000, 9, "CAPCHA_NOT_READY"),
                get(8_100, 9, "OK")));

    assertThat(spacing.gets()).isEqualTo(6);
    assertThat(spacing.tasks()).isEqualTo(3);
    assertThat(spacing.shortestMillis()).isEqualTo(3_500);
    assertThat(spacing.gapsUnder5s()).isEqualTo(1);
    assertThat(spacing.tasksUnder5s()).isEqualTo(1);
    assertThat(spacing.examples()).containsExactly("task 7: 3500 ms");
  }

  @Test
  void aFaultedGetStillCountsForSpacingBecauseItReachedTheProvider() {
    var faulted =
        new RequestRecord(4_000, RequestRecord.RES, "get", "benc…", 7, "FAULT", "HTML_502");
    var spacing = ProviderLedger.spacing(List.of(get(1_000, 7, "CAPCHA_NOT_READY"), faulted));

    assertThat(spacing.gapsUnder5s()).isEqualTo(1);
  }

  @Test
  void aSecondTaskAfterALostInPhpReplyIsAPaidDuplicateExplainedByTheLostReply() {
    var d =
        duplicates(
            List.of(task(1, "p/a", 10_000, 15_000), task(2, "p/a", 20_000, 25_000)),
            List.of(in(10_000, 1, "LOST_RESPONSE"), in(20_000, 2, null), get(26_000, 2, "OK")),
            List.of());

    assertThat(d.paid()).isEqualTo(1);
    assertThat(d.keys()).isEqualTo(1);
    assertThat(d.pairs())
        .singleElement()
        .extracting(ProviderLedger.Pair::cause)
        .isEqualTo(ProviderLedger.Cause.LOST_REPLY);
    assertThat(d.pairs().get(0).describe()).startsWith("key-a: task 1 then 2");
  }

  @Test
  void aTaskNeverAskedAboutIsExplainedByAKillOnlyWhenTheHarnessKilledAWorkerBetween() {
    List<TaskRecord> tasks =
        List.of(task(1, "p/a", 10_000, 15_000), task(2, "p/a", 40_000, 45_000));
    List<RequestRecord> requests = List.of(in(10_000, 1, null), in(40_000, 2, null));

    assertThat(duplicates(tasks, requests, List.of(12_000L)).count(ProviderLedger.Kind.EXPLAINED))
        .isEqualTo(1);
    assertThat(duplicates(tasks, requests, List.of(50_000L)).count(ProviderLedger.Kind.UNEXPLAINED))
        .isEqualTo(1);
  }

  @Test
  void aTaskPolledDuringAnOutageIsKnownToTheEngineSoAKillDoesNotExplainIt() {
    var outageGet =
        new RequestRecord(12_000, RequestRecord.RES, "get", "benc…", 1, "FAULT", "HTML_502");
    var d =
        duplicates(
            List.of(task(1, "p/a", 10_000, 15_000), task(2, "p/a", 20_000, 25_000)),
            List.of(in(10_000, 1, null), outageGet, in(20_000, 2, null)),
            List.of(13_000L));

    assertThat(d.count(ProviderLedger.Kind.UNEXPLAINED)).isEqualTo(1);
  }

  @Test
  void anAnswerTooOldToBeSureOfIsByDesignOnlyWhenReadyLongerAgoThanItsTokenLifetime() {
    // ready at 15 s, first delivered at 300 s: 285 s > 270 s
    var old =
        duplicates(
            List.of(task(1, "p/a", 10_000, 15_000), task(2, "p/a", 301_000, 306_000)),
            List.of(in(10_000, 1, null), get(300_000, 1, "OK"), in(301_000, 2, null)),
            List.of());
    // ready at 15 s, delivered at 200 s: 185 s is within the lifetime, so not by design
    var young =
        duplicates(
            List.of(task(1, "p/a", 10_000, 15_000), task(2, "p/a", 201_000, 206_000)),
            List.of(in(10_000, 1, null), get(200_000, 1, "OK"), in(201_000, 2, null)),
            List.of());

    assertThat(old.pairs().get(0).cause()).isEqualTo(ProviderLedger.Cause.TOO_OLD);
    assertThat(young.pairs().get(0).cause()).isEqualTo(ProviderLedger.Cause.UNEXPLAINED);
    assertThat(young.pairs().get(0).describe()).contains("ready 185.0 s", "token lifetime 270 s");
  }

  @Test
  void anAnswerReturnedToAWorkerKilledBeforeStoringItIsAgedUntilTheDeliveryTheEngineKept() {
    // ready at 15 s, returned at 16 s to a worker killed before storing it, returned again at
    // 300 s: the engine had it only then, 285 s > 270 s after ready, and submitted again
    var d =
        duplicates(
            List.of(task(1, "p/a", 10_000, 15_000), task(2, "p/a", 301_000, 306_000)),
            List.of(
                in(10_000, 1, null),
                get(16_000, 1, "OK"),
                get(300_000, 1, "OK"),
                in(301_000, 2, null)),
            List.of(17_000L));

    // the old rule aged it to its first delivery, 1 s, and called it not explained
    assertThat(d.pairs().get(0).cause()).isEqualTo(ProviderLedger.Cause.TOO_OLD);
    assertThat(d.pairs().get(0).describe()).contains("ready 285.0 s", "last delivered");
  }

  @Test
  void aPushTheAppNodeAcceptedDeliversNothingUntilAGetReturnsTheAnswer() {
    var push = new PushRecord(1, PushRecord.SENT, 15_000, 15_010, 200, false);
    var d =
        ProviderLedger.duplicates(
            List.of(task(1, "p/a", 10_000, 15_000), task(2, "p/a", 20_000, 25_000)),
            List.of(in(10_000, 1, null), in(20_000, 2, null)),
            List.of(push),
            List.of(12_000L),
            Map.of(),
            LIFETIMES,
            SOLVE_TIMEOUT);

    // a push is a doorbell: the engine stores what res.php says, and no get returned this answer
    assertThat(d.pairs().get(0).cause()).isEqualTo(ProviderLedger.Cause.UNEXPLAINED);
    assertThat(d.pairs().get(0).describe()).contains("replaced, never delivered");
  }

  @Test
  void idlePaidThreadsAreCountedWhileWorkWaitsAndLeftOutInAnOutage() {
    // cap 2, plan 3. a: in flight 0-10 s; b: enqueued at 0, submitted only at 6 s (6 s idle below
    // C); c: enqueued at 0, never submitted until 20 s, but a provider outage covers 10-14 s.
    List<TaskRecord> tasks =
        List.of(task(1, "a", 0, 10_000), task(2, "b", 6_000, 20_000), task(3, "c", 20_000, 30_000));
    var occ =
        ProviderLedger.occupancy(
            tasks,
            Map.of("a", 0L, "b", 0L, "c", 0L),
            List.of(new long[] {10_000, 14_000}),
            2,
            3,
            0,
            30_000);

    // waiting (outside 10-14 s): 0-10 s and 14-20 s = 16 s
    assertThat(occ.waitingSeconds()).isEqualTo(16.0);
    // below C = 2: 0-6 s (1 in flight), 14-20 s (1 in flight) = 12 s, longest 6 s
    assertThat(occ.idleCapSeconds()).isEqualTo(12.0);
    assertThat(occ.longestIdleCap()).isEqualTo(6.0);
    assertThat(occ.longestIdleCapFrom()).isZero();
    // below the plan's 3: all 16 s, longest 10 s (0-10 s; the outage breaks the stretch)
    assertThat(occ.idlePlanSeconds()).isEqualTo(16.0);
    assertThat(occ.longestIdlePlan()).isEqualTo(10.0);
    // thread-seconds: 0-6 s 1, 6-10 s 2, 14-20 s 1 = 6 + 8 + 6 = 20; / (2 × 16) and / (3 × 16)
    assertThat(occ.utilCap()).isEqualTo(20.0 / 32);
    assertThat(occ.utilPlan()).isEqualTo(20.0 / 48);
  }

  @Test
  void theFirstSubmitAfterAnOutageIsReadFromTheRequestLog() {
    var failedSubmit =
        new RequestRecord(61_000, RequestRecord.IN, null, "benc…", 0, "FAULT", "HTML_502");
    var w =
        ProviderLedger.window(
            List.of(
                new RequestRecord(
                    20_000, RequestRecord.RES, "get", "benc…", 1, "FAULT", "HTML_502"),
                failedSubmit,
                in(67_500, 5, null)),
            10_000,
            60_000);

    assertThat(w.gets()).isEqualTo(1);
    assertThat(w.getsServed()).isZero();
    assertThat(w.firstSubmitAfter()).isEqualTo(7.5);
  }
}
