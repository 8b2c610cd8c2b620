package com.captchajobs.bench;

import com.captchajobs.core.stats.Percentiles;
import com.captchajobs.simulator.TaskRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The targets of {@link BenchOptions.Mode#VIP} (issue 33, item 4), each a row judged from the
 * simulator's records and the harness's own times, never from the engine's tables: the REST
 * enqueues, utilisation in steady state, enqueue → in.php over the first C, submits refused for
 * threads, wall against the limit, answer ready → stored, and each worker's memory.
 */
final class VipFigures {

  /** Enqueues of the whole run at most this long (15,000 in 75 s: 200 a second). */
  static final double ENQUEUE_SECONDS = 75;

  static final double STEADY_UTILISATION = 0.95;
  static final double ENQUEUE_TO_SUBMIT_P95 = 2.0;
  static final double WALL_OVER_LIMIT = 1.10;
  static final double READY_TO_STORED_MEAN = 1.0;
  static final double WORKER_RSS_MIB = 768;

  /** The in.php answers of a provider that has no thread free for the key. */
  static final List<String> REFUSED_FOR_THREADS =
      List.of("ERROR_NO_SLOT_AVAILABLE", "ERROR_ZERO_BALANCE");

  private VipFigures() {}

  static void add(Figures f) {
    RunData run = f.run();
    int cap = run.options().threads();
    RunData.Enqueues e = run.enqueues();

    double perSecond = run.options().solves() / e.seconds();
    f.put("vip_enqueue_s", e.seconds());
    f.row(
        "VIP: " + run.options().solves() + " enqueues, single-solve POST /api/solves",
        Figures.fmt(e.seconds(), 1)
            + " s ("
            + Figures.fmt(perSecond, 0)
            + " a second) over "
            + e.connections()
            + " connections, from the first request sent to the last answered (harness); app"
            + " node JVM "
            + Figures.fmt(e.appCpuSeconds(), 1)
            + " CPU s, peak RSS "
            + Figures.fmt(e.appPeakRssMiB(), 0)
            + " MiB",
        "≤ " + Figures.fmt(ENQUEUE_SECONDS, 0) + " s",
        ok(e.seconds(), v -> v <= ENQUEUE_SECONDS));

    long full = firstFull(run.tasks(), cap);
    if (full < 0) {
      f.row(
          "VIP: provider-thread utilisation in steady state",
          "n/a: the provider never had C = " + cap + " tasks in flight",
          "≥ " + Figures.pct(STEADY_UTILISATION) + " of C",
          false);
    } else {
      int plan = run.options().planThreads();
      ProviderLedger.Occupancy steady =
          ProviderLedger.occupancy(
              run.tasks(), run.enqueuedAt(), List.of(), cap, plan, full, run.endMillis());
      f.put("vip_steady_from_s", (full - run.startMillis()) / 1000.0);
      f.put("vip_steady_util", steady.utilCap());
      f.row(
          "VIP: provider-thread utilisation in steady state",
          Figures.pct1(steady.utilCap())
              + " of C = "
              + cap
              + " over "
              + Figures.fmt(steady.waitingSeconds(), 1)
              + " s with work waiting, from the first moment all "
              + cap
              + " were busy (t="
              + Figures.fmt((full - run.startMillis()) / 1000.0, 1)
              + " s; simulator's task records)",
          "≥ " + Figures.pct(STEADY_UTILISATION) + " of C",
          ok(steady.utilCap(), v -> v >= STEADY_UTILISATION));
    }

    List<Double> first = enqueueToSubmitOfFirst(run.tasks(), e.sentAt(), cap);
    double p95 = Percentiles.of(first, 0.95);
    f.put("vip_enqueue_to_submit_p95", p95);
    f.row(
        "VIP: enqueue → in.php over the first " + cap + " enqueued",
        "p95 "
            + Figures.fmt(p95, 3)
            + " s (p50 "
            + Figures.fmt(Percentiles.of(first, 0.5), 3)
            + " s, max "
            + Figures.fmt(Percentiles.of(first, 1.0), 3)
            + " s, n="
            + first.size()
            + "; request sent → the simulator's acceptance of its first task, simulator's clock)",
        "p95 ≤ " + Figures.fmt(ENQUEUE_TO_SUBMIT_P95, 0) + " s",
        ok(p95, v -> v <= ENQUEUE_TO_SUBMIT_P95));

    long refused =
        REFUSED_FOR_THREADS.stream()
            .mapToLong(c -> run.stats().rejectedSubmitsByCode().getOrDefault(c, 0L))
            .sum();
    f.put("vip_refused_for_threads", refused);
    f.row(
        "VIP: in.php refused for threads",
        refused + " (" + String.join(", ", REFUSED_FOR_THREADS) + "; simulator)",
        "0",
        refused == 0);

    double wall = f.value("wall_over_limit");
    f.row(
        "VIP: wall / zero-lag limit",
        Figures.fmt(wall, 2),
        "≤ " + Figures.fmt(WALL_OVER_LIMIT, 2),
        ok(wall, v -> v <= WALL_OVER_LIMIT));

    double lag = f.value("fetch_lag_mean");
    f.row(
        "VIP: answer ready → stored, mean (ready → the first get that returned it, simulator)",
        Figures.fmt(lag, 2) + " s",
        "≤ " + Figures.fmt(READY_TO_STORED_MEAN, 1) + " s",
        ok(lag, v -> v <= READY_TO_STORED_MEAN));

    double rss =
        run.nodes().stream().mapToDouble(RunData.Node::peakRssMiB).max().orElse(Double.NaN);
    f.put("vip_worker_rss_max", rss);
    f.row(
        "VIP: peak RSS of the largest worker JVM",
        Figures.fmt(rss, 0) + " MiB (-Xmx" + run.options().workerHeap() + ")",
        "≤ " + Figures.fmt(WORKER_RSS_MIB, 0) + " MiB",
        ok(rss, v -> v <= WORKER_RSS_MIB));
  }

  /**
   * The first instant the provider had {@code cap} tasks in flight (started → ready), or -1 when it
   * never did.
   */
  static long firstFull(List<TaskRecord> tasks, int cap) {
    List<long[]> events = new ArrayList<>();
    for (TaskRecord t : tasks) {
      if (t.startedAt() != TaskRecord.NOT_STARTED) {
        events.add(new long[] {t.startedAt(), 1});
        if (t.readyAt() != TaskRecord.NOT_STARTED) {
          events.add(new long[] {t.readyAt(), -1});
        }
      }
    }
    events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int now = 0;
    for (long[] ev : events) {
      now += (int) ev[1];
      if (now >= cap) {
        return ev[0];
      }
    }
    return -1;
  }

  /**
   * For the first {@code n} solves sent (in the order sent), seconds from the request sent to the
   * provider's acceptance of the solve's first task; a solve with no task is left out.
   */
  static List<Double> enqueueToSubmitOfFirst(
      List<TaskRecord> tasks, Map<String, Long> sentAt, int n) {
    Map<String, Long> firstAccepted = new HashMap<>();
    for (TaskRecord t : tasks) {
      if (t.subject() != null) {
        firstAccepted.merge(t.subject(), t.acceptedAt(), Math::min);
      }
    }
    List<Double> out = new ArrayList<>();
    int i = 0;
    for (Map.Entry<String, Long> s : sentAt.entrySet()) {
      if (i++ >= n) {
        break;
      }
      Long accepted = firstAccepted.get(s.getKey());
      if (accepted != null) {
        out.add((accepted - s.getValue()) / 1000.0);
      }
    }
    return out;
  }

  private static Boolean ok(double v, java.util.function.DoublePredicate p) {
    return Double.isNaN(v) ? null : p.test(v);
  }
}
