package com.captchajobs.simulator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Counters and the in-flight timeline of one key (or of requests without a known key). Not
 * thread-safe: callers hold the owner's lock.
 */
final class KeyStats {
  static final int SERIES_CAP = 200_000;

  long accepted;
  final Map<String, Long> rejectedByCode = new TreeMap<>();
  long duplicates;
  final Set<String> fingerprints = new HashSet<>();
  final Map<String, Long> byPageUrl = new TreeMap<>();
  long resCalls;
  long solved;
  long pollsOnSolved;
  final List<Long> fetchLagsMillis = new ArrayList<>();

  int inFlight;
  int maxInFlight;
  long lastChangeAt;
  long inFlightMillisIntegral;
  final List<long[]> series = new ArrayList<>();

  KeyStats(long startedAt) {
    lastChangeAt = startedAt;
    series.add(new long[] {startedAt, 0});
  }

  void reject(String code) {
    rejectedByCode.merge(code, 1L, Long::sum);
  }

  void accept(Submission submission) {
    accepted++;
    if (!fingerprints.add(submission.fingerprint())) {
      duplicates++;
    }
    if (submission.pageUrl() != null) {
      byPageUrl.merge(submission.pageUrl(), 1L, Long::sum);
    }
  }

  /**
   * Records the in-flight count changing by {@code delta} at {@code at} (never before the last
   * change).
   */
  void inFlightChange(long at, int delta) {
    inFlightMillisIntegral += inFlight * (at - lastChangeAt);
    lastChangeAt = at;
    inFlight += delta;
    maxInFlight = Math.max(maxInFlight, inFlight);
    if (series.size() < SERIES_CAP) {
      series.add(new long[] {at, inFlight});
    }
  }

  double threadSecondsAt(long now) {
    return (inFlightMillisIntegral + (long) inFlight * Math.max(0, now - lastChangeAt)) / 1000.0;
  }

  /** A copy that is safe to read without the lock. */
  View view(long now) {
    return new View(
        inFlight,
        maxInFlight,
        accepted,
        Map.copyOf(rejectedByCode),
        duplicates,
        Map.copyOf(byPageUrl),
        resCalls,
        solved,
        pollsOnSolved,
        List.copyOf(fetchLagsMillis),
        threadSecondsAt(now),
        List.copyOf(series));
  }

  record View(
      int inFlight,
      int maxInFlight,
      long accepted,
      Map<String, Long> rejectedByCode,
      long duplicates,
      Map<String, Long> byPageUrl,
      long resCalls,
      long solved,
      long pollsOnSolved,
      List<Long> fetchLagsMillis,
      double threadSeconds,
      List<long[]> series) {}
}
