package com.captchajobs.simulator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Turns per-key {@link KeyStats.View}s into one {@link SimulatorStats}. */
final class StatsSnapshots {
  private StatsSnapshots() {}

  static SimulatorStats combine(List<KeyStats.View> views) {
    Map<String, Long> rejected = new TreeMap<>();
    Map<String, Long> byPageUrl = new TreeMap<>();
    List<Long> lags = new ArrayList<>();
    int inFlight = 0;
    long accepted = 0, duplicates = 0, resCalls = 0, solved = 0, pollsOnSolved = 0;
    double threadSeconds = 0;
    for (KeyStats.View v : views) {
      inFlight += v.inFlight();
      accepted += v.accepted();
      duplicates += v.duplicates();
      resCalls += v.resCalls();
      solved += v.solved();
      pollsOnSolved += v.pollsOnSolved();
      threadSeconds += v.threadSeconds();
      v.rejectedByCode().forEach((code, n) -> rejected.merge(code, n, Long::sum));
      v.byPageUrl().forEach((url, n) -> byPageUrl.merge(url, n, Long::sum));
      lags.addAll(v.fetchLagsMillis());
    }
    double[] lagPercentiles =
        lags.isEmpty() ? new double[2] : LagPercentiles.seconds(lags, 0.50, 0.95);
    List<long[]> series = mergeSeries(views);
    int maxInFlight = views.stream().mapToInt(KeyStats.View::maxInFlight).max().orElse(0);
    for (long[] point : series) {
      maxInFlight = Math.max(maxInFlight, (int) point[1]);
    }
    return new SimulatorStats(
        inFlight,
        maxInFlight,
        accepted,
        Collections.unmodifiableMap(rejected),
        duplicates,
        Collections.unmodifiableMap(byPageUrl),
        resCalls,
        solved,
        solved == 0 ? 0.0 : (double) pollsOnSolved / solved,
        lagPercentiles[0],
        lagPercentiles[1],
        lags.isEmpty() ? 0.0 : Collections.max(lags) / 1000.0,
        lags.isEmpty()
            ? 0.0
            : lags.stream().mapToLong(Long::longValue).average().orElse(0) / 1000.0,
        threadSeconds,
        series);
  }

  /**
   * Sums per-key step series into one. Changes of different keys in the same millisecond are
   * coalesced, so an end on one key and a start on another never show a spurious peak.
   */
  private static List<long[]> mergeSeries(List<KeyStats.View> views) {
    List<KeyStats.View> withSeries = views.stream().filter(v -> v.series().size() > 1).toList();
    if (withSeries.isEmpty()) {
      return views.isEmpty() ? List.of() : List.of(views.get(0).series().get(0).clone());
    }
    if (withSeries.size() == 1) {
      return copy(withSeries.get(0).series());
    }
    List<long[]> events = new ArrayList<>(); // [time, keyIndex, value]
    for (int k = 0; k < withSeries.size(); k++) {
      for (long[] p : withSeries.get(k).series()) {
        events.add(new long[] {p[0], k, p[1]});
      }
    }
    events.sort((a, b) -> Long.compare(a[0], b[0])); // stable: keeps each key's order
    long[] current = new long[withSeries.size()];
    long total = 0;
    List<long[]> merged = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      long[] e = events.get(i);
      total += e[2] - current[(int) e[1]];
      current[(int) e[1]] = e[2];
      boolean lastOfInstant = i + 1 == events.size() || events.get(i + 1)[0] != e[0];
      if (lastOfInstant && merged.size() < KeyStats.SERIES_CAP) {
        merged.add(new long[] {e[0], total});
      }
    }
    return merged;
  }

  private static List<long[]> copy(List<long[]> series) {
    List<long[]> out = new ArrayList<>(series.size());
    series.forEach(p -> out.add(p.clone()));
    return out;
  }
}
