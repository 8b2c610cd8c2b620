package com.captchajobs.core.internal.store;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.model.ClaimedToken;
import com.captchajobs.core.model.ReportDelivery;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The solve table as callers and the repair pass read it: a solve by id, client or business key,
 * the token claimed once (invariant 6 of docs/architecture.md), expiry, and the solves the repair
 * pass must give a job again. Every method is one statement; instants are compared on the
 * database's clock ({@code now()}), never a node's (invariant 11). New rows are {@link
 * SolveInserts}'s, the engine's changes as a solve moves {@link SolveTransitions}'s.
 */
public final class SolveRepository {

  private static final String COLUMNS =
      "id, business_key, type, params::text AS params, priority, callback_url, status, task_id,"
          + " submitted_at, solved_at, expires_at, claimed_at, error_code, error_class, submits,"
          + " polls, thread_waits, unsolvable_resubmits, created_at, updated_at, report_verdict,"
          + " reported_at, report_delivery, report_delivered_at, report_error, provider";
  private static final TypeReference<TreeMap<String, String>> PARAMS = new TypeReference<>() {};

  private final Db db;
  private static final ObjectMapper json = JsonMapper.builder().build();

  /** The timeline records of what the row does not keep (best effort). */
  public SolveEvents events() {
    return new SolveEvents(db);
  }

  public SolveRepository(DataSource dataSource, Schema schema) {
    this.db = new Db(dataSource, schema);
  }

  /** The client of solves enqueued through the Java API (one trusted client). */
  public static final String JAVA_API_CLIENT = "java-api";

  /**
   * The row {@link #claim} took: the token handed out, and for the claim event its type and when it
   * was solved.
   */
  public record Claim(ClaimedToken claimed, Instant solvedAt, CaptchaType type) {}

  public Optional<Solve> find(UUID id) {
    return db.queryOne("SELECT " + COLUMNS + " FROM captchajobs.solve WHERE id = ?", this::map, id);
  }

  /** The solve when {@code client} owns it; empty for another client's solve. */
  public Optional<Solve> findOwned(UUID id, String client) {
    return db.queryOne(
        "SELECT " + COLUMNS + " FROM captchajobs.solve WHERE id = ? AND client = ?",
        this::map,
        id,
        client);
  }

  public Optional<Solve> findByBusinessKey(String client, String businessKey) {
    return db.queryOne(
        "SELECT " + COLUMNS + " FROM captchajobs.solve WHERE client = ? AND business_key = ?",
        this::map,
        client,
        businessKey);
  }

  public Optional<String> payloadHash(String client, String businessKey) {
    return db.queryOne(
        "SELECT payload_hash FROM captchajobs.solve WHERE client = ? AND business_key = ?",
        rs -> rs.getString(1),
        client,
        businessKey);
  }

  public Optional<String> clientOf(UUID id) {
    return db.queryOne(
        "SELECT client FROM captchajobs.solve WHERE id = ?", rs -> rs.getString(1), id);
  }

  /** The client's solves not yet final (queued, waiting, submitted), for its cap. */
  public int countUnfinished(String client) {
    return db.queryOne(SolveInserts.COUNT_UNFINISHED, rs -> rs.getInt(1), client, client).orElse(0);
  }

  /**
   * Folds every client's recorded changes of its unfinished count into its base count, so that the
   * change rows of a client that stopped enqueueing stay few (the repair pass runs it). Each client
   * is folded under its enqueue lock, in its own transaction: never beside an enqueue or another
   * fold of the same client, on any node. Returns how many change rows were folded.
   */
  public int foldUnfinished() {
    int folded = 0;
    for (String client :
        db.query(
            "SELECT DISTINCT client FROM captchajobs.client_unfinished_delta",
            rs -> rs.getString(1))) {
      folded +=
          db.underLock(
              SolveInserts.lockName(client),
              tx ->
                  tx.query(
                          SolveInserts.FOLD_UNFINISHED_COUNTING, rs -> rs.getInt(1), client, client)
                      .get(0));
    }
    return folded;
  }

  /** Hands the token out once: only a SOLVED row before its expiry (database clock), atomically. */
  public Optional<Claim> claim(UUID id) {
    return db.queryOne(
        "WITH c AS (SELECT id, token, user_agent, expires_at, solved_at, type FROM captchajobs.solve"
            + " WHERE id = ? AND status = 'SOLVED' AND expires_at > now() FOR UPDATE)"
            + " UPDATE captchajobs.solve s SET status = 'CLAIMED', claimed_at = now(), token = NULL,"
            + " updated_at = now() FROM c WHERE s.id = c.id"
            + " RETURNING c.token, c.user_agent, c.expires_at, c.solved_at, c.type",
        rs ->
            new Claim(
                new ClaimedToken(rs.getString(1), rs.getString(2), Db.instant(rs, "expires_at")),
                Db.instant(rs, "solved_at"),
                CaptchaType.valueOf(rs.getString("type"))),
        id);
  }

  /** The stored token, for a webhook configured to carry it; empty once claimed or expired. */
  public Optional<String> token(UUID id) {
    return db.queryOne(
        "SELECT token FROM captchajobs.solve WHERE id = ? AND token IS NOT NULL",
        rs -> rs.getString(1),
        id);
  }

  /** Expires unclaimed tokens (database clock); returns how many. */
  public int expireTokens() {
    return db.update(
        "UPDATE captchajobs.solve SET status = 'EXPIRED', token = NULL, updated_at = now()"
            + " WHERE status = 'SOLVED' AND expires_at <= now()");
  }

  /** A solve the repair pass found without a live job; {@code repairs} names its next job. */
  public record Stuck(Solve solve, int repairs) {}

  /**
   * Unfinished solves without a live JobRunr job (none recorded, or it ended, or it is gone), one
   * page after the keyset ({@code afterUpdatedAt}, {@code afterId}), oldest first. QUEUED and
   * SUBMITTED rows qualify once unchanged for {@code quiet} (database clock): the moment between
   * storing a job id and creating the job is not a wedge. WAITING_FOR_THREAD rows are parked on
   * purpose and qualify only once past their deadline, {@code deadline} after creation (or the last
   * requeue).
   */
  public List<Stuck> findStuck(
      Duration quiet, Duration deadline, Instant afterUpdatedAt, UUID afterId, int limit) {
    return db.query(
        "SELECT "
            + COLUMNS
            + ", repairs FROM captchajobs.solve s"
            + " WHERE (s.status IN ('QUEUED', 'SUBMITTED')"
            + "   OR (s.status = 'WAITING_FOR_THREAD'"
            + "     AND coalesce(s.requeued_at, s.created_at) < now() - ? * interval '1 millisecond'))"
            + " AND s.updated_at < now() - ? * interval '1 millisecond'"
            + " AND (s.updated_at, s.id) > (?, ?)"
            + " AND NOT EXISTS (SELECT 1 FROM captchajobs.cj_jobrunr_jobs j"
            + "   WHERE j.id = CAST(s.job_id AS char(36))"
            + "   AND j.state IN ('SCHEDULED', 'ENQUEUED', 'PROCESSING', 'AWAITING'))"
            + " ORDER BY s.updated_at, s.id LIMIT ?",
        rs -> new Stuck(map(rs), rs.getInt("repairs")),
        deadline.toMillis(),
        quiet.toMillis(),
        afterUpdatedAt,
        afterId,
        limit);
  }

  /**
   * The unfinished solves whose recorded job is one of {@code jobIds} (a carrier job records itself
   * on the solves it carries, a fetch on a worker's executor records the worker's JobRunr server),
   * with their repair counters.
   */
  public List<Stuck> unfinishedWithJobs(java.util.Collection<UUID> jobIds) {
    if (jobIds.isEmpty()) {
      return List.of();
    }
    return db.query(
        "SELECT "
            + COLUMNS
            + ", repairs FROM captchajobs.solve WHERE job_id = ANY(?::text[]::uuid[])"
            + " AND status IN ('QUEUED', 'SUBMITTED', 'WAITING_FOR_THREAD')",
        rs -> new Stuck(map(rs), rs.getInt("repairs")),
        (Object) jobIds.stream().map(UUID::toString).toArray(String[]::new));
  }

  /** Whether a run of the solve's submit may be between taking its lock and storing a task id. */
  public boolean submitLocked(UUID id) {
    return db.queryOne(
            "SELECT 1 FROM captchajobs.solve WHERE id = ? AND task_id IS NULL"
                + " AND submit_lock_until > now()",
            rs -> true,
            id)
        .isPresent();
  }

  /**
   * Lets a solve whose submit a dead node may have been making be submitted again at once: its
   * submit lock is cleared (its slot stays taken by a phantom, so the cap holds), and the
   * submission the dead node may have made is counted, so the next in.php carries the next
   * submission's pingback URL and a push for a task that dead call created is refused as an old
   * submission's.
   */
  public void clearSubmitLock(UUID id) {
    db.update(
        "UPDATE captchajobs.solve SET submit_lock_until = NULL, submits = submits + 1"
            + " WHERE id = ? AND task_id IS NULL AND submit_lock_until IS NOT NULL",
        id);
  }

  /**
   * Records a recovery job for a stuck solve, counting the repair: false when another pass or a job
   * moved the solve since it was read ({@code repairs} changed, or it ended).
   */
  public boolean markRepaired(UUID id, int repairs, UUID jobId) {
    return db.update(
            "UPDATE captchajobs.solve SET repairs = repairs + 1, job_id = ?, updated_at = now()"
                + " WHERE id = ? AND repairs = ?"
                + " AND status IN ('QUEUED', 'SUBMITTED', 'WAITING_FOR_THREAD')",
            jobId,
            id,
            repairs)
        == 1;
  }

  /**
   * Runs the repair pass body unless another node runs it now (an advisory lock held for the pass);
   * false when skipped.
   */
  public boolean exclusively(Runnable pass) {
    return db.exclusively("repair-pass", pass);
  }

  /**
   * A solved task as the first-poll learner sees it: how long after its in.php the answer was
   * stored, and whether a push rang for the fetch that found it.
   */
  public record SolvedSample(long sinceSubmitMillis, boolean pushed) {}

  /** The fleet's most recent solved tasks of a type, newest first. */
  public List<SolvedSample> recentSolved(CaptchaType type, int limit) {
    return db.query(
        "SELECT (EXTRACT(EPOCH FROM (solved_at - submitted_at)) * 1000)::bigint AS millis,"
            + " answered_via = 'push' AS pushed FROM captchajobs.solve WHERE type = ? AND solved_at IS NOT NULL AND submitted_at IS NOT NULL"
            + " ORDER BY solved_at DESC LIMIT ?",
        rs -> new SolvedSample(rs.getLong("millis"), rs.getBoolean("pushed")),
        type,
        limit);
  }

  private Solve map(ResultSet rs) throws SQLException {
    return new Solve(
        Db.uuid(rs, "id"),
        rs.getString("business_key"),
        CaptchaType.valueOf(rs.getString("type")),
        params(rs.getString("params")),
        rs.getInt("priority"),
        rs.getString("callback_url"),
        SolveStatus.valueOf(rs.getString("status")),
        rs.getString("task_id"),
        Db.instant(rs, "submitted_at"),
        Db.instant(rs, "solved_at"),
        Db.instant(rs, "expires_at"),
        Db.instant(rs, "claimed_at"),
        rs.getString("error_code"),
        rs.getString("error_class") == null
            ? null
            : ErrorClass.valueOf(rs.getString("error_class")),
        rs.getInt("submits"),
        rs.getInt("polls"),
        rs.getInt("thread_waits"),
        rs.getInt("unsolvable_resubmits"),
        Db.instant(rs, "created_at"),
        Db.instant(rs, "updated_at"),
        report(rs),
        rs.getString("provider"));
  }

  private static SolveStatusView.Report report(ResultSet rs) throws SQLException {
    String verdict = rs.getString("report_verdict");
    if (verdict == null) {
      return null;
    }
    return new SolveStatusView.Report(
        Verdict.valueOf(verdict),
        Db.instant(rs, "reported_at"),
        ReportDelivery.valueOf(rs.getString("report_delivery")),
        Db.instant(rs, "report_delivered_at"),
        rs.getString("report_error"));
  }

  /**
   * Solves with a callback URL that reached an outcome since the given instant (webhook catch-up).
   */
  public List<UUID> outcomesWithCallbackSince(Instant since) {
    return db.query(
        "SELECT id FROM captchajobs.solve WHERE callback_url IS NOT NULL AND updated_at > ?"
            + " AND (solved_at IS NOT NULL OR status = 'FAILED')",
        rs -> Db.uuid(rs, "id"),
        since);
  }

  /** A solve's stored {@code params} column, read back. */
  public static TreeMap<String, String> params(String text) {
    try {
      return json.readValue(text, PARAMS);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Unreadable solve params: " + e.getOriginalMessage(), e);
    }
  }

  /** Whether the solve's row still names this task, whatever its status. */
  public boolean runsTask(UUID id, String taskId) {
    return find(id).map(row -> Objects.equals(row.taskId(), taskId)).orElse(false);
  }
}
