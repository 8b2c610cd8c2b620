package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.captchajobs.bench.IdleCauses.Cause;
import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.TaskRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Where idle paid-thread seconds go, and the fetch lag split by outage, counted from scripted
 * provider logs and harness times only.
 */
@Tag("unit")
class IdleCausesTest {

  static final IdleCauses.Events NONE = new IdleCauses.Events(List.of(), List.of(), List.of());

  static TaskRecord task(long id, String subject, long acceptedAt, long readyAt) {
    return ProviderLedgerTest.task(id, subject, acceptedAt, readyAt);
  }

  static RequestRecord get(long at, long taskId, String outcome) {
    return ProviderLedgerTest.get(at, taskId, outcome);
  }

  static PushRecord pushed(long taskId, long at) {
    return new PushRecord(taskId, PushRecord.SENT, at - 10, at, 200, false);
  }

  static Map<Cause, Double> causes(
      List<long[]> idle,
      List<TaskRecord> tasks,
      List<RequestRecord> requests,
      List<PushRecord> pushes,
      IdleCauses.Events events) {
    return IdleCauses.of(idle, tasks, requests, pushes, events, 10_000, 60_000).byCause();
  }

  @Test
  void anAnswerPushedButNotYetFetchedCountsAsAQueuedPushedFetchAndBeforeThePushAsAwaitingAPoll() {
    // ready at 1 s, the push accepted at 1.1 s, the get that delivers it at 3 s
    Map<Cause, Double> c =
        causes(
            List.<long[]>of(new long[] {1_000, 3_000, 1}),
            List.of(task(1, "a", 0, 1_000)),
            List.of(get(3_000, 1, "OK")),
            List.of(pushed(1, 1_100)),
            NONE);
    assertThat(c).containsOnlyKeys(Cause.AWAITING_POLL, Cause.PUSHED_FETCH_QUEUED);
    assertThat(c.get(Cause.AWAITING_POLL)).isCloseTo(0.1, within(1e-9));
    assertThat(c.get(Cause.PUSHED_FETCH_QUEUED)).isCloseTo(1.9, within(1e-9));
  }

  @Test
  void aReadyAnswerWhoseTaskWasAskedAboutLessThanFiveSecondsAgoWaitsForTheRule() {
    // "not ready" at 0.5 s, ready at 1 s and pushed at 1.1 s: the fetch may come at 5.5 s only
    Map<Cause, Double> c =
        causes(
            List.<long[]>of(new long[] {1_000, 5_500, 1}),
            List.of(task(1, "a", 0, 1_000)),
            List.of(get(500, 1, "CAPCHA_NOT_READY"), get(5_500, 1, "OK")),
            List.of(pushed(1, 1_100)),
            NONE);
    assertThat(c).containsOnlyKeys(Cause.FIVE_SECOND_RULE);
    assertThat(c.get(Cause.FIVE_SECOND_RULE)).isCloseTo(4.5, within(1e-9));
  }

  @Test
  void theFiveSecondsAfterAGetThatFailedOnAReadyAnswerAreTheRulesAndWhatFollowsIsTheEngines() {
    // ready at 1 s, the get at 1.2 s faulted, the next at 7.0 s delivers it
    Map<Cause, Double> c =
        causes(
            List.<long[]>of(new long[] {1_000, 7_000, 1}),
            List.of(task(1, "a", 0, 1_000)),
            List.of(
                new RequestRecord(1_200, RequestRecord.RES, "get", "benc…", 1, "FAULT", "RESET"),
                get(7_000, 1, "OK")),
            List.of(pushed(1, 1_100)),
            NONE);
    assertThat(c)
        .containsOnlyKeys(
            Cause.AWAITING_POLL,
            Cause.PUSHED_FETCH_QUEUED,
            Cause.FAILED_GET_RULE,
            Cause.FETCH_FAILED);
    assertThat(c.get(Cause.FAILED_GET_RULE)).isCloseTo(5.0, within(1e-9));
    assertThat(c.get(Cause.FETCH_FAILED)).isCloseTo(0.8, within(1e-9));
  }

  @Test
  void aFailedGetAfterTheAnswerWasReadyAndAKillSinceItWasReadyAreCountedAsSuch() {
    // task 1: ready at 1 s, its get at 1 s faulted; task 2: ready at 2 s, a worker killed at 3 s
    List<RequestRecord> requests =
        List.of(
            new RequestRecord(1_000, RequestRecord.RES, "get", "benc…", 1, "FAULT", "HTML_502"),
            get(9_000, 1, "OK"),
            get(9_000, 2, "OK"));
    Map<Cause, Double> c =
        causes(
            List.<long[]>of(new long[] {6_000, 9_000, 2}),
            List.of(task(1, "a", 0, 1_000), task(2, "b", 0, 2_000)),
            requests,
            List.of(),
            new IdleCauses.Events(List.of(3_000L), List.of(), List.of()));
    // task 1's failed get at 1 s: the rule's 5 s end at 6 s, the stretch's 3 s are the engine's
    assertThat(c.get(Cause.FETCH_FAILED)).isCloseTo(3.0, within(1e-9));
    assertThat(c).doesNotContainKey(Cause.FAILED_GET_RULE);
    assertThat(c.get(Cause.KILLED)).isCloseTo(3.0, within(1e-9));
  }

  @Test
  void threadsNothingAtTheProviderExplainsGoToTheLatestEventSinceTheFleetWasLastFullElseOther() {
    // one stretch 0-4 s (2 idle threads, then 1) with a kill at 1 s; the fleet full from 4 to 5 s;
    // a second stretch 5-6 s, after which no event came
    List<long[]> idle =
        List.of(
            new long[] {0, 2_000, 2}, new long[] {2_000, 4_000, 1}, new long[] {5_000, 6_000, 1});
    Map<Cause, Double> c =
        causes(
            idle,
            List.of(),
            List.of(),
            List.of(),
            new IdleCauses.Events(List.of(1_000L), List.of(), List.of()));
    assertThat(c.get(Cause.OTHER)).isCloseTo(2.0 + 1.0, within(1e-9));
    assertThat(c.get(Cause.AFTER_KILL)).isCloseTo(2.0 + 2.0, within(1e-9));
  }

  @Test
  void theDatabaseOrProviderComingBackOwnsTheStretchThatFollowsUntilALaterKill() {
    List<long[]> idle = List.<long[]>of(new long[] {10_000, 20_000, 1});
    Map<Cause, Double> c =
        causes(
            idle,
            List.of(),
            List.of(),
            List.of(),
            new IdleCauses.Events(List.of(15_000L), List.of(10_000L), List.of()));
    assertThat(c.get(Cause.AFTER_DATABASE)).isCloseTo(5.0, within(1e-9));
    assertThat(c.get(Cause.AFTER_KILL)).isCloseTo(5.0, within(1e-9));
  }

  @Test
  void anInPhpWithoutAReplyCountsAsAPhantomForTheHoldButNotWhileItsLostTaskStillRuns() {
    // a 502 at 0 (no task) and a lost reply at 0 whose task runs until 4 s; hold 10 s
    List<RequestRecord> requests =
        List.of(
            new RequestRecord(0, RequestRecord.IN, null, "benc…", 0, "FAULT", "HTML_502"),
            new RequestRecord(0, RequestRecord.IN, null, "benc…", 7, "OK", "LOST_RESPONSE"));
    TaskRecord lost = task(7, "lost", 0, 4_000);
    Map<Cause, Double> c =
        causes(
            List.<long[]>of(new long[] {1_000, 12_000, 2}),
            List.of(lost),
            requests,
            List.of(),
            NONE);
    // 1-4 s: one phantom (the 502), one other; 4-10 s: two phantoms; 10-12 s: nothing left
    assertThat(c.get(Cause.PHANTOM)).isCloseTo(3.0 + 12.0, within(1e-9));
    assertThat(c.get(Cause.OTHER)).isCloseTo(3.0 + 4.0, within(1e-9));
  }

  @Test
  void aPhantomsHoldEndsWithTheFirstTaskAcceptedAfterTheNextThreadsinfoReading() {
    // a 502 at 0; the repair pass reads threadsinfo at 2 s; a task is accepted at 2.5 s
    List<RequestRecord> requests =
        List.of(
            new RequestRecord(0, RequestRecord.IN, null, "benc…", 0, "FAULT", "HTML_502"),
            new RequestRecord(2_000, RequestRecord.RES, "threadsinfo", "benc…", 0, "OK", null),
            new RequestRecord(2_500, RequestRecord.IN, null, "benc…", 8, "OK", null));
    Map<Cause, Double> c =
        causes(
            List.<long[]>of(new long[] {0, 4_000, 1}),
            List.of(task(8, "next", 2_500, 9_000)),
            requests,
            List.of(),
            NONE);
    assertThat(c.get(Cause.PHANTOM)).isCloseTo(2.5, within(1e-9));
    assertThat(c.get(Cause.OTHER)).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void theCausesNeverExplainMoreThreadsThanWereIdle() {
    // three answers ready and never fetched, but only one thread idle
    Map<Cause, Double> c =
        causes(
            List.<long[]>of(new long[] {1_000, 2_000, 1}),
            List.of(task(1, "a", 0, 500), task(2, "b", 0, 500), task(3, "c", 0, 500)),
            List.of(),
            List.of(),
            NONE);
    assertThat(c.values().stream().mapToDouble(Double::doubleValue).sum())
        .isCloseTo(1.0, within(1e-9));
  }

  @Test
  void theLongestStretchIsTheLongestRunOfTouchingIdleStretches() {
    List<long[]> idle =
        List.of(
            new long[] {0, 3_000, 1},
            new long[] {4_000, 6_000, 1},
            new long[] {6_000, 8_000, 2},
            new long[] {9_000, 10_000, 1});
    List<long[]> longest = Figures.longestStretch(idle);
    assertThat(longest).hasSize(2);
    assertThat(longest.get(0)[0]).isEqualTo(4_000);
    assertThat(longest.get(1)[1]).isEqualTo(8_000);
  }

  @Test
  void theMomentsOverTheCapAreWhereAStartTakesTheFleetAboveIt() {
    // three tasks in flight from 2 s to 3 s; two from 1 s to 4 s and again from 6 s to 7 s
    List<TaskRecord> tasks =
        List.of(
            task(1, "a", 500, 3_000),
            task(2, "b", 1_000, 8_000),
            task(3, "c", 2_000, 4_000),
            task(4, "d", 6_000, 7_000));
    assertThat(Figures.overCapMoments(tasks, 2, 5)).containsExactly(2_000L);
    assertThat(Figures.overCapMoments(tasks, 1, 5)).containsExactly(1_000L, 6_000L);
    assertThat(Figures.overCapMoments(tasks, 1, 1)).containsExactly(1_000L);
    assertThat(Figures.overCapMoments(tasks, 3, 5)).isEmpty();
  }

  @Test
  void fetchLagIsSplitByWhetherTheAnswerWasReadyInsideAnOutageWindow() {
    List<TaskRecord> tasks =
        List.of(task(1, "a", 0, 1_000), task(2, "b", 0, 12_000), task(3, "c", 0, 25_000));
    List<RequestRecord> requests =
        List.of(get(1_500, 1, "OK"), get(30_000, 2, "OK"), get(26_000, 3, "OK"));
    List<List<Double>> split =
        ProviderLedger.fetchLagsByOutage(
            tasks, requests, List.<long[]>of(new long[] {10_000, 20_000}));
    assertThat(split.get(0)).containsExactly(0.5, 1.0);
    assertThat(split.get(1)).containsExactly(18.0);
  }
}
