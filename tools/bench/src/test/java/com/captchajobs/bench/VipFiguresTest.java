package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.simulator.TaskRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class VipFiguresTest {

  private static TaskRecord task(long id, String page, long accepted, long started, long ready) {
    return new TaskRecord(
        id, "turnstile", page, accepted, started, ready, ready - started, 0, true);
  }

  @Test
  void steadyStateStartsTheFirstMomentTheProviderHasCTasksInFlight() {
    List<TaskRecord> tasks =
        List.of(
            task(1, "a", 0, 100, 1_000),
            task(2, "b", 0, 200, 400),
            task(3, "c", 0, 500, 2_000), // with 1: two in flight from 500
            task(4, "d", 0, 900, 3_000)); // with 1 and 3: three from 900
    assertThat(VipFigures.firstFull(tasks, 2)).isEqualTo(200);
    assertThat(VipFigures.firstFull(tasks, 3)).isEqualTo(900);
    assertThat(VipFigures.firstFull(tasks, 4)).isEqualTo(-1);
  }

  @Test
  void aTaskReadyTheInstantAnotherStartsDoesNotCountWithIt() {
    List<TaskRecord> tasks = List.of(task(1, "a", 0, 100, 500), task(2, "b", 0, 500, 900));
    assertThat(VipFigures.firstFull(tasks, 2)).isEqualTo(-1);
  }

  @Test
  void enqueueToSubmitCountsTheFirstCSentInTheirOrderFromTheFirstTaskOfEach() {
    Map<String, Long> sent = new LinkedHashMap<>();
    sent.put("b", 1_000L);
    sent.put("a", 1_100L);
    sent.put("c", 1_200L);
    List<TaskRecord> tasks =
        List.of(
            task(1, "a", 1_600, 1_600, 9_000),
            task(2, "b", 3_000, 3_000, 9_000),
            task(3, "a", 20_000, 20_000, 29_000), // a second task of a: not its first
            task(4, "c", 1_300, 1_300, 9_000));
    assertThat(VipFigures.enqueueToSubmitOfFirst(tasks, sent, 2)).containsExactly(2.0, 0.5);
    assertThat(VipFigures.enqueueToSubmitOfFirst(tasks, sent, 5)).containsExactly(2.0, 0.5, 0.1);
  }

  @Test
  void theVipModeBringsTheIssuesSetupAndItsCommandLineReproducesIt() {
    BenchOptions vip = BenchOptions.parse("--mode", "vip");
    assertThat(vip).isEqualTo(BenchOptions.forMode(BenchOptions.Mode.VIP));
    assertThat(vip.threads()).isEqualTo(5_000);
    assertThat(vip.solves()).isEqualTo(15_000);
    assertThat(vip.workers()).isEqualTo(3);
    assertThat(vip.timeScale()).isEqualTo(20.0);
    assertThat(vip.workerHeap()).isEqualTo("1g");
    assertThat(vip.push()).isTrue();
    assertThat(vip.mix()).hasToString("TURNSTILE:1.0");
    assertThat(vip.workerProps())
        .containsEntry("captchaai.first-poll-wait.TURNSTILE", "84s")
        .containsEntry("captchaai.min-first-poll-wait", "100s")
        .containsEntry("captchaai.solve-timeout", "2400s")
        .containsEntry("captchaai.lease", "3600s")
        .containsEntry("captchaai.solve-deadline", "200m")
        .doesNotContainKey("captchaai.poll-interval");
    String[] words = vip.commandLine().split(" ");
    assertThat(BenchOptions.parse(java.util.Arrays.copyOfRange(words, 3, words.length)))
        .isEqualTo(vip);
  }

  @Test
  void theRequestBodyIsTheRestApisFlatJson() {
    assertThat(
            RestAppNode.body(
                new AppNode.Request(
                    "k-1", com.captchajobs.core.client.CaptchaType.TURNSTILE, false)))
        .startsWith("{\"businessKey\":\"k-1\",\"type\":\"TURNSTILE\",")
        .contains("\"sitekey\":\"0x4AAAAAAADnPIDROrmt1Wwj\"")
        .contains(
            "\"pageUrl\":\""
                + TypeMix.subject(com.captchajobs.core.client.CaptchaType.TURNSTILE, "k-1")
                + "\"");
  }
}
