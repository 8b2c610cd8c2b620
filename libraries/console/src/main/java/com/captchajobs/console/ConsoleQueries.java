package com.captchajobs.console;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The console's reads, each one statement on an index (see docs/performance.md for their times at a
 * million solves). Nothing here reads a token, a solve's parameters or an API key.
 */
public final class ConsoleQueries {

  /** Rows per page of the solves table and of a dead code's list. */
  public static final int PAGE = 50;

  /** How long one console statement may run before PostgreSQL cancels it (the page answers 503). */
  public static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(5);

  /** A key prefix with fewer matches is read through its index and sorted; see {@link #solves}. */
  static final int FEW_KEYS = 20_000;

  private final Db db;

  public ConsoleQueries(DataSource dataSource, Schema schema) {
    this(dataSource, schema, STATEMENT_TIMEOUT);
  }

  ConsoleQueries(DataSource dataSource, Schema schema, Duration statementTimeout) {
    this.db = new Db(dataSource, schema, statementTimeout);
  }

  /** The gate at one instant and the provider's last working threads (null when not read). */
  public record Gauges(
      Instant at, int capacity, int inFlight, int waiting, Integer workingThreads) {}

  /**
   * One statement: cap, slots held, solves waiting, working threads read in the last 30 s. The cap
   * and the slots are the primary's ({@code captchaai}), as the engine's gate figures; the other
   * providers' are on the overview's Providers table. The solves waiting are all of them.
   */
  public Gauges gauges() {
    return db.queryOne(
            "SELECT clock_timestamp() AS at,"
                + " (SELECT capacity FROM captchajobs.gate WHERE id = 1) AS capacity,"
                + " (SELECT count(*) FROM captchajobs.gate_slot WHERE provider = 'captchaai'"
                + "   AND solve_id IS NOT NULL AND lease_until > now()) AS in_flight,"
                + " (SELECT count(*) FROM captchajobs.solve"
                + "   WHERE status = 'WAITING_FOR_THREAD') AS waiting,"
                + " (SELECT sum(working_threads) FROM captchajobs.provider_threads"
                + "   WHERE read_at > now() - interval '30 seconds') AS working",
            rs ->
                new Gauges(
                    Db.instant(rs, "at"),
                    rs.getInt("capacity"),
                    rs.getInt("in_flight"),
                    rs.getInt("waiting"),
                    (Integer) (rs.getObject("working") == null ? null : rs.getInt("working"))))
        .orElseThrow();
  }

  /** Asks the workers to read the provider's working threads for the next 30 s. */
  public void watch() {
    db.update(
        "UPDATE captchajobs.gate SET watched_until = now() + interval '30 seconds'"
            + " WHERE id = 1 AND (watched_until IS NULL"
            + " OR watched_until < now() + interval '25 seconds')");
  }

  /** Answers stored in one minute, by the way they came. */
  public record AnswersMinute(Instant minute, long push, long poll) {}

  /** The last 15 whole and current minutes' answers by push and by poll, oldest first. */
  public List<AnswersMinute> answersByMinute() {
    return db.query(
        "SELECT date_trunc('minute', solved_at) AS m,"
            + " count(*) FILTER (WHERE answered_via = 'push') AS push,"
            + " count(*) FILTER (WHERE answered_via IS DISTINCT FROM 'push') AS poll"
            + " FROM captchajobs.solve WHERE solved_at IS NOT NULL"
            + " AND solved_at > date_trunc('minute', now()) - interval '15 minutes'"
            + " GROUP BY 1 ORDER BY 1",
        rs -> new AnswersMinute(Db.instant(rs, "m"), rs.getLong("push"), rs.getLong("poll")));
  }

  /** Enqueue to solved, seconds, by nearest rank, over the solves answered in the window. */
  public record Latency(long solves, Double p50Seconds, Double p95Seconds) {}

  /** Enqueue (or requeue: created_at is kept) to solved over the last 15 minutes. */
  public Latency latency() {
    return db.queryOne(
            "SELECT count(*) AS n,"
                + " percentile_disc(0.5) WITHIN GROUP (ORDER BY s) AS p50,"
                + " percentile_disc(0.95) WITHIN GROUP (ORDER BY s) AS p95 FROM ("
                + " SELECT EXTRACT(EPOCH FROM (solved_at - created_at))::float8 AS s"
                + " FROM captchajobs.solve WHERE solved_at IS NOT NULL"
                + " AND solved_at > now() - interval '15 minutes') x",
            rs ->
                new Latency(
                    rs.getLong("n"), (Double) rs.getObject("p50"), (Double) rs.getObject("p95")))
        .orElseThrow();
  }

  /** Solves that failed with a code, and how many. */
  public record CodeCount(String code, String errorClass, long count) {}

  /** FAILED in the last hour, by code, most first. */
  public List<CodeCount> failuresLastHour() {
    return db.query(
        "SELECT coalesce(error_code, '?') AS code, lower(max(error_class)) AS cls, count(*) AS n"
            + " FROM captchajobs.solve WHERE status = 'FAILED'"
            + " AND updated_at > now() - interval '1 hour' GROUP BY 1 ORDER BY n DESC, code",
        rs -> new CodeCount(rs.getString("code"), rs.getString("cls"), rs.getLong("n")));
  }

  /** A type's claims in the last hour and how many of them were reported BAD. */
  public record BadReports(String type, long claimed, long bad) {

    /** BAD reports over claims, 0 without claims. */
    public double rate() {
      return claimed == 0 ? 0 : (double) bad / claimed;
    }
  }

  /** Claims of the last hour by type, with their BAD reports (the alert's ratio). */
  public List<BadReports> badReports() {
    return db.query(
        "SELECT type, count(*) AS claimed, count(*) FILTER (WHERE report_verdict = 'BAD') AS bad"
            + " FROM captchajobs.solve WHERE claimed_at IS NOT NULL"
            + " AND claimed_at > now() - interval '1 hour' GROUP BY type ORDER BY type",
        rs -> new BadReports(rs.getString("type"), rs.getLong("claimed"), rs.getLong("bad")));
  }

  /** The solves table's filters; each optional (null or blank: any). */
  public record Filter(
      String client, String status, String type, String batch, String code, String keyPrefix) {

    static String blankToNull(String s) {
      return s == null || s.isBlank() ? null : s.strip();
    }

    public Filter {
      client = blankToNull(client);
      status = blankToNull(status) == null ? null : status.strip().toUpperCase(Locale.ROOT);
      type = blankToNull(type) == null ? null : type.strip().toUpperCase(Locale.ROOT);
      batch = blankToNull(batch);
      code = blankToNull(code);
      keyPrefix = blankToNull(keyPrefix);
    }

    public static Filter none() {
      return new Filter(null, null, null, null, null, null);
    }
  }

  /** One solve in the table: never its token or parameters. */
  public record SolveLine(
      UUID id,
      String client,
      String businessKey,
      String type,
      String status,
      String errorCode,
      String batch,
      String provider,
      Instant createdAt,
      Instant updatedAt) {}

  /** A page of the table and the cursor of the next, null when it is the last. */
  public record Page<T>(List<T> rows, Cursor next) {}

  /**
   * Solves matching the filter, newest first ({@code created_at DESC, id}), after the cursor: a
   * keyset page, whatever depth, one index range scan. A key prefix that matches fewer than {@link
   * #FEW_KEYS} solves (counted through its index, stopping there) is read through the prefix index
   * and its matches sorted, in a materialized step the planner cannot turn into a walk of the
   * creation index; a broader prefix walks the creation index, where matches are dense.
   */
  public Page<SolveLine> solves(Filter f, Cursor after) {
    boolean fewKeys = f.keyPrefix() != null && fewKeys(likePrefix(f.keyPrefix()));
    StringBuilder sql =
        new StringBuilder(
            (fewKeys ? "WITH m AS MATERIALIZED (" : "")
                + "SELECT id, client, business_key, type, status, error_code, batch, provider,"
                + " created_at, updated_at FROM captchajobs.solve WHERE true");
    List<Object> args = new ArrayList<>();
    where(sql, args, "client = ?", f.client());
    where(sql, args, "status = ?", f.status());
    where(sql, args, "type = ?", f.type());
    where(sql, args, "batch = ?", f.batch());
    where(sql, args, "error_code = ?", f.code());
    if (f.keyPrefix() != null) {
      sql.append(" AND business_key LIKE ? ESCAPE '\\'");
      args.add(likePrefix(f.keyPrefix()));
    }
    if (fewKeys) {
      after(sql, args, after);
      sql.append(") SELECT * FROM m ORDER BY created_at DESC, id LIMIT ?");
    } else {
      keyset(sql, args, after);
    }
    args.add(PAGE + 1);
    return page(db.query(sql.toString(), ConsoleQueries::line, args.toArray()));
  }

  /** Whether fewer than {@link #FEW_KEYS} solves have this key prefix (an index-only count). */
  private boolean fewKeys(String like) {
    return db.queryOne(
                "SELECT count(*) AS n FROM (SELECT 1 FROM captchajobs.solve"
                    + " WHERE business_key LIKE ? ESCAPE '\\' LIMIT ?) x",
                rs -> rs.getLong("n"),
                like,
                FEW_KEYS)
            .orElseThrow()
        < FEW_KEYS;
  }

  private static void after(StringBuilder sql, List<Object> args, Cursor after) {
    if (after != null) {
      sql.append(" AND created_at <= ? AND (created_at < ? OR id > ?)");
      args.add(after.createdAt());
      args.add(after.createdAt());
      args.add(after.id());
    }
  }

  /** The solves table's statement for a filter, with its arguments, for EXPLAIN in the bench. */
  static void keyset(StringBuilder sql, List<Object> args, Cursor after) {
    // created_at <= c is the index range; the rest skips the rows of c already shown
    after(sql, args, after);
    sql.append(" ORDER BY created_at DESC, id LIMIT ?");
  }

  private static void where(StringBuilder sql, List<Object> args, String clause, String value) {
    if (value != null) {
      sql.append(" AND ").append(clause);
      args.add(value);
    }
  }

  static String likePrefix(String prefix) {
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
  }

  private static Page<SolveLine> page(List<SolveLine> rows) {
    if (rows.size() <= PAGE) {
      return new Page<>(rows, null);
    }
    SolveLine last = rows.get(PAGE - 1);
    return new Page<>(rows.subList(0, PAGE), new Cursor(last.createdAt(), last.id()));
  }

  private static SolveLine line(java.sql.ResultSet rs) throws java.sql.SQLException {
    return new SolveLine(
        Db.uuid(rs, "id"),
        rs.getString("client"),
        rs.getString("business_key"),
        rs.getString("type"),
        rs.getString("status"),
        rs.getString("error_code"),
        rs.getString("batch"),
        rs.getString("provider"),
        Db.instant(rs, "created_at"),
        Db.instant(rs, "updated_at"));
  }

  /** FAILED solves by code, most first. */
  public List<CodeCount> deadByCode() {
    return db.query(
        "SELECT coalesce(error_code, '?') AS code, NULL AS cls, count(*) AS n"
            + " FROM captchajobs.solve WHERE status = 'FAILED' GROUP BY error_code"
            + " ORDER BY n DESC, code",
        rs -> new CodeCount(rs.getString("code"), null, rs.getLong("n")));
  }

  /** A page of FAILED solves of one code, newest first. */
  public Page<SolveLine> deadOfCode(String code, Cursor after) {
    StringBuilder sql =
        new StringBuilder(
            "SELECT id, client, business_key, type, status, error_code, batch, provider,"
                + " created_at, updated_at FROM captchajobs.solve WHERE status = 'FAILED' AND error_code = ?");
    List<Object> args = new ArrayList<>();
    args.add(code);
    keyset(sql, args, after);
    args.add(PAGE + 1);
    return page(db.query(sql.toString(), ConsoleQueries::line, args.toArray()));
  }

  /** Up to {@code limit} ids of FAILED solves of a code, for requeueing them all. */
  public List<UUID> deadIds(String code, int limit) {
    return db.query(
        "SELECT id FROM captchajobs.solve WHERE status = 'FAILED' AND error_code = ?"
            + " ORDER BY created_at DESC, id LIMIT ?",
        rs -> Db.uuid(rs, "id"),
        code,
        limit);
  }

  /** What the console shows of one solve: never its token, parameters or user agent. */
  public record SolveDetail(
      UUID id,
      String client,
      String businessKey,
      String type,
      String status,
      String taskId,
      String errorCode,
      String errorClass,
      String batch,
      String provider,
      int priority,
      int submits,
      int polls,
      int requeues,
      String requeuedErrorCode,
      String answeredVia,
      String reportVerdict,
      String reportDelivery,
      boolean hasCallback,
      UUID jobId,
      Instant createdAt,
      Instant submittedAt,
      Instant solvedAt,
      Instant claimedAt,
      Instant reportedAt,
      Instant requeuedAt,
      Instant updatedAt) {}

  public Optional<SolveDetail> solve(UUID id) {
    return db.queryOne(
        "SELECT id, client, business_key, type, status, task_id, error_code, error_class, batch,"
            + " provider, priority, submits, polls, requeues, requeued_error_code, answered_via,"
            + " report_verdict, report_delivery, callback_url IS NOT NULL AS has_callback,"
            + " job_id, created_at, submitted_at, solved_at, claimed_at, reported_at, requeued_at,"
            + " updated_at FROM captchajobs.solve WHERE id = ?",
        rs ->
            new SolveDetail(
                Db.uuid(rs, "id"),
                rs.getString("client"),
                rs.getString("business_key"),
                rs.getString("type"),
                rs.getString("status"),
                rs.getString("task_id"),
                rs.getString("error_code"),
                rs.getString("error_class"),
                rs.getString("batch"),
                rs.getString("provider"),
                rs.getInt("priority"),
                rs.getInt("submits"),
                rs.getInt("polls"),
                rs.getInt("requeues"),
                rs.getString("requeued_error_code"),
                rs.getString("answered_via"),
                rs.getString("report_verdict"),
                rs.getString("report_delivery"),
                rs.getBoolean("has_callback"),
                Db.uuid(rs, "job_id"),
                Db.instant(rs, "created_at"),
                Db.instant(rs, "submitted_at"),
                Db.instant(rs, "solved_at"),
                Db.instant(rs, "claimed_at"),
                Db.instant(rs, "reported_at"),
                Db.instant(rs, "requeued_at"),
                Db.instant(rs, "updated_at")),
        id);
  }

  /** One line of a solve's timeline. */
  public record Event(Instant at, String kind, String detail) {}

  /** The recorded events (submissions, pushes, webhooks, requeues) and polls, in time order. */
  public List<Event> events(UUID id) {
    return db.query(
        "SELECT at, kind, detail FROM ("
            + " SELECT at, kind, detail FROM captchajobs.solve_event WHERE solve_id = ?"
            + " UNION ALL SELECT called_at, 'poll', 'submission ' || submit_no || ', poll '"
            + " || poll_no || ': ' || outcome FROM captchajobs.poll WHERE solve_id = ?) e"
            + " ORDER BY at LIMIT 500",
        rs -> new Event(Db.instant(rs, "at"), rs.getString("kind"), rs.getString("detail")),
        id,
        id);
  }
}
