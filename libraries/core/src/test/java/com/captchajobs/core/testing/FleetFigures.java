package com.captchajobs.core.testing;

import com.captchajobs.simulator.SimulatorStats;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;

/**
 * Figures of a finished run, read from our tables and the simulator's statistics; their percentiles
 * come from {@link com.captchajobs.core.stats.Percentiles}.
 */
public final class FleetFigures {

  private FleetFigures() {}

  /**
   * Poll lateness in seconds: actual res.php call minus its intended instant, first attempts only.
   */
  public static List<Double> pollLateness(Sql jdbc) {
    return jdbc.queryForList(
        "SELECT EXTRACT(EPOCH FROM (called_at - intended_at))::float8 FROM captchajobs.poll",
        Double.class);
  }

  /** Freed slot → next in.php of a waiting solve, in seconds. */
  public static List<Double> handoffDelays(Sql jdbc) {
    return jdbc.queryForList(
        "SELECT EXTRACT(EPOCH FROM (submit_at - freed_at))::float8 FROM captchajobs.slot_handoff",
        Double.class);
  }

  public static long jobrunrJobs(Sql jdbc) {
    return jdbc.queryForObject(
        "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE recurringjobid IS NULL",
        Long.class);
  }

  /**
   * Gate-slot utilisation while a backlog waited: the time solves held slots (submit → token
   * stored) within [first submit, last submit] over capacity × that window.
   */
  public static double gateUtilisationUnderBacklog(Sql jdbc, int capacity) {
    Map<String, Object> window =
        jdbc.queryForMap(
            "SELECT min(submitted_at) AS t0, max(submitted_at) AS t1 FROM captchajobs.solve WHERE submitted_at IS NOT NULL");
    Timestamp t0 = (Timestamp) window.get("t0");
    Timestamp t1 = (Timestamp) window.get("t1");
    double span = (t1.getTime() - t0.getTime()) / 1000.0;
    if (span <= 0) {
      return Double.NaN;
    }
    Double held =
        jdbc.queryForObject(
            "SELECT sum(EXTRACT(EPOCH FROM (least(coalesce(solved_at, now()), ?) - greatest(submitted_at, ?))))::float8"
                + " FROM captchajobs.solve WHERE submitted_at IS NOT NULL AND submitted_at < ?",
            Double.class,
            t1,
            t0,
            t1);
    return held / (capacity * span);
  }

  /** Provider-thread utilisation over the same window, from the simulator's in-flight series. */
  public static double providerUtilisationUnderBacklog(
      Sql jdbc, SimulatorStats stats, int capacity) {
    Map<String, Object> window =
        jdbc.queryForMap(
            "SELECT min(submitted_at) AS t0, max(submitted_at) AS t1 FROM captchajobs.solve WHERE submitted_at IS NOT NULL");
    long t0 = ((Timestamp) window.get("t0")).getTime();
    long t1 = ((Timestamp) window.get("t1")).getTime();
    if (t1 <= t0) {
      return Double.NaN;
    }
    double integral = 0;
    List<long[]> series = stats.inFlightSeries();
    for (int i = 0; i < series.size(); i++) {
      long start = Math.max(series.get(i)[0], t0);
      long end = Math.min(i + 1 < series.size() ? series.get(i + 1)[0] : t1, t1);
      if (end > start) {
        integral += series.get(i)[1] * (end - start);
      }
    }
    return integral / ((double) capacity * (t1 - t0));
  }
}
