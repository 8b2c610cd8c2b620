package com.captchajobs.core.internal.ops;

import com.captchajobs.core.client.CaptchaTask;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.InvalidTaskException;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.SolveEvents;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.BatchSummary;
import com.captchajobs.core.model.Requeued;
import com.captchajobs.core.model.SolveFilter;
import com.captchajobs.core.model.SolveRow;
import com.captchajobs.core.model.SolveStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * What operators and fleet gauges ask of the solve and breaker tables: filtered lists, batch
 * summaries, dead solves, batch labels and requeues. Kept apart from {@link SolveRepository}, which
 * moves solves through their life, so that the views never change the engine's statements.
 */
public final class OperatorQueries {

  /** Largest page of {@link #list}. */
  public static final int MAX_PAGE_SIZE = 500;

  private final Db db;
  private final Schema schema;
  private final DataSource dataSource;

  public OperatorQueries(DataSource dataSource, Schema schema) {
    this.db = new Db(dataSource, schema);
    this.schema = schema;
    this.dataSource = dataSource;
  }

  /** Solves that ended {@code FAILED} within the window (dead solves), from a partial index. */
  public long failedWithin(Duration window) {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.solve WHERE status = 'FAILED'"
                + " AND updated_at > now() - make_interval(secs => ?)",
            rs -> rs.getLong(1),
            window.toMillis() / 1000.0)
        .orElse(0L);
  }

  /** Labels a solve with its batch, once (a label is not part of the payload). */
  public void label(UUID solveId, String batch) {
    db.update(
        "UPDATE captchajobs.solve SET batch = ? WHERE id = ? AND batch IS NULL", batch, solveId);
  }

  /** A page of solves matching the filter, newest first ({@code created_at} in [from, to)). */
  public List<SolveRow> list(SolveFilter f, int page, int size) {
    StringBuilder sql =
        new StringBuilder(
            "SELECT id, client, business_key, type, status, error_code,"
                + " lower(error_class) AS error_class, batch, priority, submits, polls, requeues,"
                + " requeued_error_code, created_at, updated_at, submitted_at, solved_at, provider"
                + " FROM captchajobs.solve WHERE true");
    List<Object> args = new ArrayList<>();
    String prefix = f.keyPrefix();
    and(sql, args, " AND status = ?", f.status());
    and(sql, args, " AND type = ?", f.type());
    and(sql, args, " AND error_code = ?", f.errorCode());
    and(
        sql,
        args,
        " AND business_key LIKE ? ESCAPE '\\'",
        prefix == null
            ? null
            : prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
    and(sql, args, " AND batch = ?", f.batch());
    and(sql, args, " AND client = ?", f.client());
    and(sql, args, " AND created_at >= ?", f.from());
    and(sql, args, " AND created_at < ?", f.to());
    sql.append(" ORDER BY created_at DESC, id LIMIT ? OFFSET ?");
    args.add(size);
    args.add((long) page * size);
    return db.query(
        sql.toString(),
        rs ->
            new SolveRow(
                Db.uuid(rs, "id"),
                rs.getString("client"),
                rs.getString("business_key"),
                CaptchaType.valueOf(rs.getString("type")),
                SolveStatus.valueOf(rs.getString("status")),
                rs.getString("error_code"),
                rs.getString("error_class"),
                rs.getString("batch"),
                rs.getInt("priority"),
                rs.getInt("submits"),
                rs.getInt("polls"),
                rs.getInt("requeues"),
                rs.getString("requeued_error_code"),
                Db.instant(rs, "created_at"),
                Db.instant(rs, "updated_at"),
                Db.instant(rs, "submitted_at"),
                Db.instant(rs, "solved_at"),
                rs.getString("provider")),
        args.toArray());
  }

  /** Appends {@code condition} with its value, unless the value is null (no filter). */
  private static void and(StringBuilder sql, List<Object> args, String condition, Object value) {
    if (value != null) {
      sql.append(condition);
      args.add(value);
    }
  }

  /** {@code Operations#batchClients}: the clients that label solves with {@code batch}. */
  public List<String> batchClients(String batch) {
    return db.query(
        "SELECT DISTINCT client FROM captchajobs.solve WHERE batch = ? ORDER BY client",
        rs -> rs.getString(1),
        batch);
  }

  /**
   * {@code client}'s batch {@code batch}: solves by status, and latency (submit to token) p50/p95
   * of its solved ones, computed by PostgreSQL by nearest rank ({@code percentile_disc}: the
   * definition of {@link com.captchajobs.core.stats.Percentiles}); empty when none of its solves
   * carries the label.
   */
  public Optional<BatchSummary> batch(String client, String batch) {
    Map<SolveStatus, Long> byStatus = new LinkedHashMap<>();
    Arrays.stream(SolveStatus.values()).forEach(s -> byStatus.put(s, 0L));
    long[] total = {0};
    db.query(
        "SELECT status, count(*) FROM captchajobs.solve WHERE client = ? AND batch = ?"
            + " GROUP BY status",
        rs -> {
          long n = rs.getLong(2);
          byStatus.put(SolveStatus.valueOf(rs.getString(1)), n);
          total[0] += n;
          return n;
        },
        client,
        batch);
    if (total[0] == 0) {
      return Optional.empty();
    }
    List<Double> p =
        db.query(
                "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY s),"
                    + " percentile_disc(0.95) WITHIN GROUP (ORDER BY s) FROM (SELECT"
                    + " EXTRACT(EPOCH FROM (solved_at - submitted_at))::float8 AS s FROM captchajobs.solve"
                    + " WHERE client = ? AND batch = ? AND solved_at IS NOT NULL"
                    + " AND submitted_at IS NOT NULL) x",
                rs -> Arrays.asList((Double) rs.getObject(1), (Double) rs.getObject(2)),
                client,
                batch)
            .get(0);
    return Optional.of(new BatchSummary(batch, total[0], byStatus, p.get(0), p.get(1), client));
  }

  /** The requeued row: its type and key make its job. */
  private record RequeuedRow(UUID solveId, CaptchaType type, String businessKey, int requeues) {}

  /**
   * Turns a {@code FAILED} solve into a fresh submission: back to {@code QUEUED} with no task, no
   * error and no hold, its previous error kept in {@code requeued_error_code}, {@code requeues}
   * counted and {@code requeued_at} set, and a new submit job. The solve's deadline ({@code
   * captchaai.solve-deadline}) counts afresh from the requeue. Empty when the solve is not FAILED
   * (nothing changes).
   *
   * @throws NotRebuildableException when the solve's proxy or cookies were scrubbed when it failed,
   *     so that it cannot be sent again as enqueued (nothing changes)
   */
  public Optional<Requeued> requeue(UUID solveId, SolveJobs jobs) {
    Optional<String> lost = whyNotRebuildable(solveId);
    if (lost.isPresent()) {
      throw new NotRebuildableException(solveId, lost.get());
    }
    UUID jobId = SolveJobs.jobId(solveId, "requeue:" + UUID.randomUUID());
    Optional<RequeuedRow> done =
        db.queryOne(
            "UPDATE captchajobs.solve SET status = 'QUEUED', requeues = requeues + 1, job_id = ?,"
                + " requeued_at = now(), requeued_error_code = error_code, error_code = NULL,"
                + " error_class = NULL, task_id = NULL, submitted_at = NULL, unsolvable_resubmits = 0,"
                + " not_before = NULL, waiting_since = NULL, thread_wait_since = NULL, submit_lock_until = NULL,"
                + " updated_at = now() WHERE id = ? AND status = 'FAILED'"
                + " RETURNING id, type, business_key, requeues",
            rs ->
                new RequeuedRow(
                    Db.uuid(rs, "id"),
                    CaptchaType.valueOf(rs.getString("type")),
                    rs.getString("business_key"),
                    rs.getInt("requeues")),
            jobId,
            solveId);
    done.ifPresent(
        r -> {
          new SolveEvents(dataSource, schema)
              .record(solveId, SolveEvents.REQUEUE, "requeue " + r.requeues());
          jobs.submit(jobId, solveId, r.type(), r.businessKey(), 0);
        });
    return done.map(r -> new Requeued(r.solveId(), r.requeues(), r.businessKey()));
  }

  /**
   * A failed solve whose request can no longer be sent as it was enqueued: the database removed its
   * secret parameters (proxy, cookies) when it failed. Requeueing it is refused; nothing changed.
   */
  public static final class NotRebuildableException extends RuntimeException {
    public NotRebuildableException(UUID solveId, String reason) {
      super("solve " + solveId + " cannot be requeued: " + reason);
    }
  }

  /**
   * Why a FAILED solve cannot be submitted again exactly as it was enqueued, or empty when it can
   * (or is not FAILED). Its stored parameters must still make a valid task with the payload hash
   * taken at enqueue: a proxy or cookies scrubbed at the final status change either.
   */
  Optional<String> whyNotRebuildable(UUID solveId) {
    return db.queryOne(
            "SELECT type, params::text AS params, priority, callback_url, payload_hash"
                + " FROM captchajobs.solve WHERE id = ? AND status = 'FAILED'",
            rs -> {
              CaptchaType type = CaptchaType.valueOf(rs.getString("type"));
              Map<String, String> params = SolveRepository.params(rs.getString("params"));
              String scrubbed =
                  "its request carried a proxy or cookies, which were removed from the row when it"
                      + " failed (docs/security.md); enqueue it again under a new business key";
              String hash;
              try {
                hash =
                    SolveEnqueuer.payloadHash(
                        type,
                        CaptchaTask.of(type, params).params(),
                        rs.getInt("priority"),
                        rs.getString("callback_url"));
              } catch (InvalidTaskException e) {
                return Optional.of(scrubbed + " (" + e.getMessage() + ")");
              }
              return hash.equals(rs.getString("payload_hash"))
                  ? Optional.<String>empty()
                  : Optional.of(scrubbed);
            },
            solveId)
        .flatMap(o -> o);
  }

  public ProviderRows providerRows() {
    return new ProviderRows(db);
  }

  public BreakerRows breakerRows() {
    return new BreakerRows(db);
  }

  /** The breaker of a key fingerprint, for closing it. */
  public Breaker breaker(String keyFingerprint) {
    return new Breaker(dataSource, schema, keyFingerprint);
  }

  /** The gate for reading (capacity, holders), on any node. */
  public FleetGate gate() {
    return new FleetGate(dataSource, schema, Duration.ZERO, "operator-view");
  }
}
