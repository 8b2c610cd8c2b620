package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.TaskRecord;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A scripted run against a real simulator, played by hand instead of by the engine: the figures
 * that judge the engine are read from the simulator, so they count a known duplicate and a known
 * gap under 5 s, and they do not move when the engine's rows are tampered with or deleted.
 */
@Tag("unit")
class ProviderFiguresTest {

  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final String KEY = BenchRun.API_KEY;

  /** The figures that judge the engine: none may depend on the engine's rows. */
  static final List<String> JUDGING =
      List.of(
          "res_gets",
          "res_shortest_gap_s",
          "res_gaps_under_5s",
          "duplicate_submits",
          "duplicates_accepted",
          "duplicates_explained",
          "duplicates_unexplained",
          "lost_responses",
          "provider_util",
          "provider_util_plan",
          "waiting_s",
          "idle_paid_s",
          "idle_paid_longest_s",
          "idle_plan_s",
          "fetch_lag_mean",
          "fetch_lag_mean_turnstile",
          "overshoot",
          "enqueue_p95");

  static String call(CaptchaAiSimulator sim, String path, Map<String, String> params)
      throws IOException, InterruptedException {
    StringBuilder q = new StringBuilder("key=" + KEY + "&json=1");
    params.forEach(
        (k, v) ->
            q.append('&')
                .append(k)
                .append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(sim.baseUrl() + path + "?" + q)).GET().build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  static void submit(CaptchaAiSimulator sim, String businessKey) throws Exception {
    call(
        sim,
        "/in.php",
        Map.of(
            "method",
            "turnstile",
            "sitekey",
            "0x4AAAAAAADnPIDROrmt1Wwj",
            "pageurl",
            TypeMix.pageUrl(businessKey)));
  }

  static String get(CaptchaAiSimulator sim, long taskId) throws Exception {
    return call(sim, "/res.php", Map.of("action", "get", "id", String.valueOf(taskId)));
  }

  static TaskRecord awaitReady(CaptchaAiSimulator sim, String businessKey, int nth) {
    String subject = TypeMix.pageUrl(businessKey);
    long[] id = new long[1];
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              List<TaskRecord> own =
                  sim.tasks().stream().filter(t -> subject.equals(t.subject())).toList();
              if (own.size() <= nth) {
                return false;
              }
              TaskRecord t = own.get(nth);
              id[0] = t.id();
              return t.readyAt() != TaskRecord.NOT_STARTED
                  && t.readyAt() <= System.currentTimeMillis();
            });
    return sim.tasks().stream().filter(t -> t.id() == id[0]).findFirst().orElseThrow();
  }

  @Test
  void aKnownDuplicateAndAKnownShortGapAreCountedFromTheSimulatorAndSurviveTamperedEngineRows()
      throws Exception {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 3)
            .solveTime("turnstile", Duration.ofMillis(200), Duration.ofMillis(300))
            .build()
            .start()) {
      long start = System.currentTimeMillis();
      // key-0: the first in.php reply is lost, so it is submitted again (a paid duplicate)
      sim.injectNext(Endpoint.IN, Fault.LOST_RESPONSE);
      submit(sim, "key-0");
      submit(sim, "key-0");
      submit(sim, "key-1");
      TaskRecord second = awaitReady(sim, "key-0", 1);
      TaskRecord other = awaitReady(sim, "key-1", 0);
      // two gets of one task back to back: one gap under 5 s
      assertThat(get(sim, second.id())).contains("\"status\":1");
      assertThat(get(sim, second.id())).contains("\"status\":1");
      assertThat(get(sim, other.id())).contains("\"status\":1");
      long end = System.currentTimeMillis();

      RunData run = run(sim, start, end, engineRows(sim));
      Figures f = Figures.of(run);

      assertThat(f.value("duplicate_submits")).isEqualTo(1);
      assertThat(f.value("duplicates_explained")).isEqualTo(1);
      assertThat(f.value("duplicates_unexplained")).isZero();
      assertThat(f.value("lost_responses")).isEqualTo(1);
      assertThat(f.value("res_gets")).isEqualTo(3);
      assertThat(f.value("res_gaps_under_5s")).isEqualTo(1);
      assertThat(f.value("res_shortest_gap_s")).isLessThan(5.0);
      assertThat(f.rows())
          .filteredOn(r -> r.name().equals("paid duplicates per business key"))
          .singleElement()
          .satisfies(r -> assertThat(r.value()).contains("in.php reply lost"));

      // the engine's rows deleted: no solve, no poll, no hand-off, no job
      Figures deleted = Figures.of(run(sim, start, end, new EngineRows(List.of(), List.of())));
      // the engine's rows tampered with: every poll doubled, task ids swapped, answers "stored"
      // late
      Figures tampered = Figures.of(run(sim, start, end, tampered(engineRows(sim))));
      for (String key : JUDGING) {
        assertThat((Object) deleted.value(key))
            .as(key + " with the engine's rows deleted")
            .isEqualTo(f.value(key));
        assertThat((Object) tampered.value(key))
            .as(key + " with the engine's rows tampered")
            .isEqualTo(f.value(key));
      }
    }
  }

  /**
   * The same run with the engine's rows gone: no solve, poll, hand-off, job or job history (the
   * harness's and the simulator's records kept).
   */
  static RunData withoutEngineRows(RunData r) {
    return new RunData(
        r.options(),
        r.label(),
        r.startMillis(),
        r.endMillis(),
        r.timedOut(),
        r.stats(),
        r.tasks(),
        r.requests(),
        r.pushes(),
        r.enqueuedAt(),
        r.labels(),
        r.permanentRequests(),
        List.of(),
        List.of(),
        List.of(),
        r.enqueueToSubmitSeconds(),
        0,
        -1,
        List.of(),
        List.of(),
        r.nodes(),
        r.postgresCpuSeconds(),
        r.benchCpuSeconds(),
        r.machineBusyShare(),
        r.chaos(),
        r.stuck(),
        r.pgSettings(),
        r.enqueues());
  }

  record EngineRows(List<Rows.Solve> solves, List<Rows.Poll> polls) {}

  /** What the engine's tables would hold after this script, had the engine played it. */
  static EngineRows engineRows(CaptchaAiSimulator sim) {
    List<Rows.Solve> solves = new ArrayList<>();
    List<Rows.Poll> polls = new ArrayList<>();
    for (TaskRecord t : sim.tasks()) {
      if (t.polls() > 0) {
        String key = t.subject().substring(t.subject().lastIndexOf('/') + 1);
        solves.add(
            new Rows.Solve(
                "solve-" + key,
                key,
                "TURNSTILE",
                "SOLVED",
                String.valueOf(t.id()),
                t.acceptedAt() - 10,
                t.acceptedAt(),
                t.readyAt() + 50,
                t.readyAt() + 50,
                null,
                null,
                1,
                1));
        polls.add(new Rows.Poll("solve-" + key, 1, 1, t.readyAt(), t.readyAt() + 40, "SOLVED"));
      }
    }
    return new EngineRows(solves, polls);
  }

  static EngineRows tampered(EngineRows rows) {
    List<Rows.Solve> solves = new ArrayList<>();
    for (Rows.Solve s : rows.solves()) {
      solves.add(
          new Rows.Solve(
              s.id(),
              s.businessKey(),
              s.type(),
              s.status(),
              "1",
              s.createdAt(),
              s.submittedAt(),
              s.solvedAt() + 60_000,
              s.updatedAt(),
              null,
              null,
              3,
              9));
    }
    List<Rows.Poll> polls = new ArrayList<>(rows.polls());
    polls.addAll(rows.polls());
    return new EngineRows(solves, polls);
  }

  static RunData run(CaptchaAiSimulator sim, long start, long end, EngineRows rows) {
    BenchOptions options =
        BenchOptions.parse(
                "--mode", "default", "--mix", "TURNSTILE:1", "--threads", "2", "--reserve", "1")
            .with(2, 1, 2, 0.05, java.nio.file.Path.of("target"), Map.of())
            .withPush(false);
    Map<String, Long> enqueuedAt =
        Map.of(TypeMix.pageUrl("key-0"), start, TypeMix.pageUrl("key-1"), start);
    Map<String, String> labels =
        Map.of(
            TypeMix.subject(CaptchaType.TURNSTILE, "key-0"), "key-0",
            TypeMix.subject(CaptchaType.TURNSTILE, "key-1"), "key-1");
    return new RunData(
        options,
        "scripted",
        start,
        end,
        false,
        sim.stats(),
        sim.tasks(),
        sim.requests(),
        sim.pushes(),
        enqueuedAt,
        labels,
        0,
        rows.solves(),
        rows.polls(),
        rows.polls().isEmpty() ? List.of() : List.of(0.2, 0.3),
        List.of(0.05),
        rows.polls().size(),
        -1,
        List.of(),
        List.of(),
        List.of(),
        0,
        0,
        0,
        Chaos.Events.none(),
        List.of(),
        Map.of(),
        RunData.Enqueues.NONE);
  }
}
