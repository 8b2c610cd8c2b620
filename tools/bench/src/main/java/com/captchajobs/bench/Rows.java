package com.captchajobs.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of our tables the bench reads, with plain JDBC: the final status of every solve (solves
 * lost, stuck) and a few diagnostics. No figure that judges the engine is counted from them: those
 * come from the simulator ({@link ProviderLedger}).
 */
final class Rows {

  private Rows() {}

  record Solve(
      String id,
      String businessKey,
      String type,
      String status,
      String taskId,
      long createdAt,
      long submittedAt,
      long solvedAt,
      long updatedAt,
      String errorCode,
      String errorClass,
      int submits,
      int polls) {}

  record Poll(
      String solveId, int submitNo, int pollNo, long intendedAt, long calledAt, String outcome) {}

  /** An unfinished solve without a live job. */
  record Unfinished(String id, String businessKey, String status, String jobId, long updatedAt) {}

  /**
   * Unfinished solves without a live JobRunr job (SCHEDULED, ENQUEUED, PROCESSING or AWAITING) for
   * the job id they record; a solve waiting for a slot only while fewer than {@code cap} slots are
   * held (otherwise it is parked on purpose until a slot frees).
   */
  static List<Unfinished> withoutLiveJob(Connection c, int cap) throws SQLException {
    List<Unfinished> out = new ArrayList<>();
    try (var st =
        c.prepareStatement(
            Database.BENCH_TAG
                + "SELECT s.id, s.business_key, s.status, s.job_id, s.updated_at FROM captchajobs.solve s"
                + " WHERE s.status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED')"
                + " AND NOT EXISTS (SELECT 1 FROM captchajobs.cj_jobrunr_jobs j"
                + "   WHERE j.id = CAST(s.job_id AS char(36))"
                + "   AND j.state IN ('SCHEDULED', 'ENQUEUED', 'PROCESSING', 'AWAITING'))"
                + " AND (s.status <> 'WAITING_FOR_THREAD' OR (SELECT count(*) FROM captchajobs.gate_slot g"
                + "   WHERE g.provider = 'captchaai' AND g.solve_id IS NOT NULL"
                + "   AND g.lease_until > now()) < ?)")) {
      st.setInt(1, cap);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.add(
              new Unfinished(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  millis(rs, 5)));
        }
      }
    }
    return out;
  }

  /** A JobRunr job of a solve that failed permanently: how many FAILED states its history holds. */
  record JobHistory(String businessKey, String jobName, int failedStates) {}

  static List<Solve> solves(Connection c) throws SQLException {
    List<Solve> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                Database.BENCH_TAG
                    + "SELECT id, business_key, type, status, task_id, created_at, submitted_at, solved_at, updated_at,"
                    + " error_code, error_class, submits, polls FROM captchajobs.solve")) {
      while (rs.next()) {
        out.add(
            new Solve(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                millis(rs, 6),
                millis(rs, 7),
                millis(rs, 8),
                millis(rs, 9),
                rs.getString(10),
                rs.getString(11),
                rs.getInt(12),
                rs.getInt(13)));
      }
    }
    return out;
  }

  static List<Poll> polls(Connection c) throws SQLException {
    List<Poll> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                Database.BENCH_TAG
                    + "SELECT solve_id, submit_no, poll_no, intended_at, called_at, outcome FROM captchajobs.poll")) {
      while (rs.next()) {
        out.add(
            new Poll(
                rs.getString(1),
                rs.getInt(2),
                rs.getInt(3),
                millis(rs, 4),
                millis(rs, 5),
                rs.getString(6)));
      }
    }
    return out;
  }

  static List<Double> handoffSeconds(Connection c) throws SQLException {
    return list(
        c,
        "SELECT EXTRACT(EPOCH FROM (submit_at - freed_at))::float8 FROM captchajobs.slot_handoff",
        rs -> rs.getDouble(1));
  }

  /**
   * The hand-offs that took over a second (freed slot, or the solve's wait if later → in.php), with
   * the provider, as lines for the bench's log (diagnostic: when and where hand-offs were slow).
   */
  static List<String> slowHandoffs(Connection c, long startMillis) throws SQLException {
    return list(
        c,
        "SELECT h.freed_at, EXTRACT(EPOCH FROM (h.submit_at - h.freed_at))::float8, s.provider"
            + " FROM captchajobs.slot_handoff h JOIN captchajobs.solve s ON s.id = h.solve_id"
            + " WHERE h.submit_at - h.freed_at > interval '1 second' ORDER BY h.freed_at",
        rs ->
            "t=%.1f s took %.2f s at %s"
                .formatted(
                    (rs.getTimestamp(1).getTime() - startMillis) / 1000.0,
                    rs.getDouble(2),
                    rs.getString(3)));
  }

  /** One value of a row of a result. */
  private interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  /** Every row of {@code sql} (tagged as the bench's own statement), read by {@code row}. */
  private static <T> List<T> list(Connection c, String sql, RowReader<T> row) throws SQLException {
    List<T> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(Database.BENCH_TAG + sql)) {
      while (rs.next()) {
        out.add(row.read(rs));
      }
    }
    return out;
  }

  static long jobrunrJobs(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                Database.BENCH_TAG
                    + "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE recurringjobid IS NULL")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The jobs of solves that failed with a permanent error class (request, image, proxy, ...). */
  static List<JobHistory> permanentJobs(Connection c) throws SQLException {
    List<JobHistory> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                Database.BENCH_TAG
                    + "SELECT s.business_key, j.jobasjson FROM captchajobs.solve s JOIN captchajobs.cj_jobrunr_jobs j"
                    // by the job's name ("Submit <type> <key>"): its key label is cut at 45
                    // characters
                    + " ON j.jobasjson LIKE '%\"jobName\":\"%' || s.business_key || '%'"
                    + " WHERE s.status = 'FAILED' AND upper(s.error_class)"
                    + " IN ('REQUEST', 'IMAGE', 'PROXY', 'CREDENTIAL', 'UNSOLVABLE')")) {
      while (rs.next()) {
        String json = rs.getString(2);
        out.add(new JobHistory(rs.getString(1), jobName(json), count(json, "states.FailedState")));
      }
    }
    return out;
  }

  private static String jobName(String json) {
    int i = json.indexOf("\"jobName\":\"");
    if (i < 0) {
      return "?";
    }
    int start = i + 11;
    return json.substring(start, json.indexOf('"', start));
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
      n++;
    }
    return n;
  }

  private static long millis(ResultSet rs, int column) throws SQLException {
    Timestamp t = rs.getTimestamp(column);
    return t == null ? 0 : t.getTime();
  }
}
