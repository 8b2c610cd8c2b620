package com.captchajobs.core.internal.engine;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The solve table. Every method is one statement, so every state change is committed before the
 * caller does anything else (the task id in particular: invariant 3 of docs/architecture.md).
 */
public final class SolveRepository {

  private static final String COLUMNS =
      "id, business_key, type, params::text AS params, priority, callback_url, status, task_id,"
          + " submitted_at, solved_at, expires_at, claimed_at, error_code, error_class, submits,"
          + " polls, thread_waits, unsolvable_resubmits, created_at, updated_at";
  private static final TypeReference<TreeMap<String, String>> PARAMS = new TypeReference<>() {};

  private final Db db;
  private final ObjectMapper json = JsonMapper.builder().build();

  public SolveRepository(DataSource dataSource, Schema schema) {
    this.db = new Db(dataSource, schema);
  }

  /** A new solve as the enqueue side stores it. */
  public record NewSolve(
      UUID id,
      String businessKey,
      CaptchaType type,
      Map<String, String> params,
      String payloadHash,
      int priority,
      String callbackUrl,
      UUID jobId) {}

  /** A token handed out by {@link #claim}; never printed. */
  public record ClaimedToken(
      String token, String userAgent, Instant expiresAt, Instant solvedAt, CaptchaType type) {
    @Override
    public String toString() {
      return "ClaimedToken[token=("
          + (token == null ? 0 : token.length())
          + " chars), expiresAt="
          + expiresAt
          + "]";
    }
  }

  /** Inserts the solve unless its business key exists; true when this call stored it. */
  public boolean insertIfAbsent(NewSolve s) {
    return db.update(
            "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, priority,"
                + " callback_url, status, job_id) VALUES (?, ?, ?, ?::jsonb, ?, ?, ?, 'QUEUED', ?)"
                + " ON CONFLICT (business_key) DO NOTHING",
            s.id(),
            s.businessKey(),
            s.type(),
            json.writeValueAsString(new TreeMap<>(s.params())),
            s.payloadHash(),
            s.priority(),
            s.callbackUrl(),
            s.jobId())
        == 1;
  }

  /**
   * Inserts the solve unless its business key exists, in one statement: QUEUED when a slot of the
   * gate is free for it, otherwise already WAITING_FOR_THREAD (a slot is free for it when the free
   * slots outnumber the queued solves without one and no solve waits for a slot). A waiting solve
   * needs no job: a freed slot is handed to it. Empty when the business key exists.
   */
  public Optional<SolveState> insertQueuedOrWaiting(NewSolve s) {
    return db.queryOne(
        "WITH w AS (SELECT ("
            + "   EXISTS (SELECT 1 FROM captchajobs.solve WHERE status = 'WAITING_FOR_THREAD'"
            + "     AND (not_before IS NULL OR not_before <= now()))"
            + "   OR (SELECT count(*) FROM captchajobs.gate_slot WHERE (solve_id IS NULL OR lease_until < now())"
            + "     AND slot_no < (SELECT capacity FROM captchajobs.gate WHERE id = 1))"
            + "    <= (SELECT count(*) FROM captchajobs.solve q WHERE q.status = 'QUEUED'"
            + "     AND NOT EXISTS (SELECT 1 FROM captchajobs.gate_slot h WHERE h.solve_id = q.id))"
            + " ) AS parks)"
            + " INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, priority,"
            + " callback_url, status, job_id, waiting_since, thread_waits)"
            + " SELECT ?, ?, ?, ?::jsonb, ?, ?, ?,"
            + " CASE WHEN w.parks THEN 'WAITING_FOR_THREAD' ELSE 'QUEUED' END,"
            + " CASE WHEN w.parks THEN NULL ELSE ?::uuid END,"
            + " CASE WHEN w.parks THEN now() END, CASE WHEN w.parks THEN 1 ELSE 0 END FROM w"
            + " ON CONFLICT (business_key) DO NOTHING RETURNING status",
        rs -> SolveState.valueOf(rs.getString(1)),
        s.id(),
        s.businessKey(),
        s.type(),
        json.writeValueAsString(new TreeMap<>(s.params())),
        s.payloadHash(),
        s.priority(),
        s.callbackUrl(),
        s.jobId());
  }

  public Optional<Solve> find(UUID id) {
    return db.queryOne("SELECT " + COLUMNS + " FROM captchajobs.solve WHERE id = ?", this::map, id);
  }

  public Optional<Solve> findByBusinessKey(String businessKey) {
    return db.queryOne(
        "SELECT " + COLUMNS + " FROM captchajobs.solve WHERE business_key = ?",
        this::map,
        businessKey);
  }

  public Optional<String> payloadHash(String businessKey) {
    return db.queryOne(
        "SELECT payload_hash FROM captchajobs.solve WHERE business_key = ?",
        rs -> rs.getString(1),
        businessKey);
  }

  /** Parks a solve that found no free thread; false when it is no longer waiting to submit. */
  public boolean markWaiting(UUID id, Instant now) {
    return db.update(
            "UPDATE captchajobs.solve SET status = 'WAITING_FOR_THREAD', waiting_since = ?,"
                + " thread_waits = thread_waits + 1, updated_at = ?"
                + " WHERE id = ? AND status = 'QUEUED'",
            now,
            now,
            id)
        == 1;
  }

  /** The provider had no free thread: wait and submit again later, without spending a retry. */
  public void waitForThread(UUID id, Instant notBefore, String code, Instant now) {
    db.update(
        "UPDATE captchajobs.solve SET status = 'WAITING_FOR_THREAD', not_before = ?,"
            + " waiting_since = ?, thread_waits = thread_waits + 1, error_code = ?, submit_lock_until = NULL,"
            + " updated_at = ? WHERE id = ? AND status IN ('QUEUED', 'WAITING_FOR_THREAD')",
        notBefore,
        now,
        code,
        now,
        id);
  }

  /**
   * Takes the right to move this solve through the gate and in.php, for at most {@code hold}: false
   * when another run of its submit job holds it, or the solve no longer waits to be submitted. Runs
   * of one solve's submit job are thereby serialised; a crash leaves the lock to expire.
   */
  public boolean lockForSubmit(UUID id, Duration hold) {
    return db.update(
            "UPDATE captchajobs.solve SET submit_lock_until = now() + ? * interval '1 millisecond'"
                + " WHERE id = ? AND status IN ('QUEUED', 'WAITING_FOR_THREAD') AND task_id IS NULL"
                + " AND (submit_lock_until IS NULL OR submit_lock_until < now())",
            hold.toMillis(),
            id)
        == 1;
  }

  /** Gives the submit lock back; a no-op when an outcome already cleared it. */
  public void unlockSubmit(UUID id) {
    db.update(
        "UPDATE captchajobs.solve SET submit_lock_until = NULL WHERE id = ? AND submit_lock_until IS NOT NULL",
        id);
  }

  /**
   * Commits the provider task id first, before any poll is scheduled.
   *
   * @param pollJobId the id of the first poll job, created right after this commit
   */
  public void markSubmitted(UUID id, String taskId, Instant at, UUID pollJobId) {
    db.update(
        "UPDATE captchajobs.solve SET status = 'SUBMITTED', task_id = ?, submitted_at = ?,"
            + " submits = submits + 1, error_code = NULL, error_class = NULL, not_before = NULL,"
            + " submit_lock_until = NULL, job_id = ?, updated_at = ? WHERE id = ?",
        taskId,
        at,
        pollJobId,
        at,
        id);
  }

  /** Counts a res.php call that did not end the solve; {@code nextJobId} is the next poll. */
  public void markPolled(UUID id, Instant now, UUID nextJobId) {
    db.update(
        "UPDATE captchajobs.solve SET polls = polls + 1, job_id = ?, updated_at = ? WHERE id = ?",
        nextJobId,
        now,
        id);
  }

  /** Records the JobRunr job that is expected to move the solve next. */
  public void setJob(UUID id, UUID jobId) {
    db.update("UPDATE captchajobs.solve SET job_id = ? WHERE id = ?", jobId, id);
  }

  public void markSolved(
      UUID id, String token, String userAgent, Instant solvedAt, Instant expiresAt) {
    db.update(
        "UPDATE captchajobs.solve SET status = 'SOLVED', token = ?, user_agent = ?, solved_at = ?,"
            + " expires_at = ?, polls = polls + 1, updated_at = ? WHERE id = ? AND status = 'SUBMITTED'",
        token,
        userAgent,
        solvedAt,
        expiresAt,
        solvedAt,
        id);
  }

  /** Ends the solve with a classified error; a solved or claimed row is never failed. */
  public void markFailed(UUID id, String code, ErrorClass errorClass, Instant now) {
    db.update(
        "UPDATE captchajobs.solve SET status = 'FAILED', error_code = ?, error_class = ?,"
            + " token = NULL, submit_lock_until = NULL, updated_at = ?"
            + " WHERE id = ? AND status NOT IN ('SOLVED', 'CLAIMED', 'EXPIRED')",
        code,
        errorClass,
        now,
        id);
  }

  /** A transient in.php failure: back to QUEUED, the last error kept for the record. */
  public void markRetrying(UUID id, String code, ErrorClass errorClass, Instant now) {
    db.update(
        "UPDATE captchajobs.solve SET status = 'QUEUED', error_code = ?, error_class = ?,"
            + " submit_lock_until = NULL, updated_at = ? WHERE id = ? AND status IN ('QUEUED', 'WAITING_FOR_THREAD')",
        code,
        errorClass,
        now,
        id);
  }

  /**
   * Forgets a task that can no longer be resumed so that a fresh submission may follow.
   *
   * @param jobId the submit job that follows, or null when the caller goes on itself
   */
  public void forgetTask(UUID id, boolean unsolvable, String code, Instant now, UUID jobId) {
    db.update(
        "UPDATE captchajobs.solve SET status = 'QUEUED', task_id = NULL, submitted_at = NULL,"
            + " unsolvable_resubmits = unsolvable_resubmits + ?, error_code = ?, job_id = ?,"
            + " updated_at = ? WHERE id = ? AND status IN ('QUEUED', 'SUBMITTED')",
        unsolvable ? 1 : 0,
        code,
        jobId,
        now,
        id);
  }

  /** Hands the token out once: only a SOLVED row before its expiry, atomically. */
  public Optional<ClaimedToken> claim(UUID id, Instant now) {
    return db.queryOne(
        "WITH c AS (SELECT id, token, user_agent, expires_at, solved_at, type FROM captchajobs.solve"
            + " WHERE id = ? AND status = 'SOLVED' AND expires_at > ? FOR UPDATE)"
            + " UPDATE captchajobs.solve s SET status = 'CLAIMED', claimed_at = ?, token = NULL,"
            + " updated_at = ? FROM c WHERE s.id = c.id"
            + " RETURNING c.token, c.user_agent, c.expires_at, c.solved_at, c.type",
        rs ->
            new ClaimedToken(
                rs.getString(1),
                rs.getString(2),
                Db.instant(rs, "expires_at"),
                Db.instant(rs, "solved_at"),
                CaptchaType.valueOf(rs.getString("type"))),
        id,
        now,
        now,
        now);
  }

  /** The stored token, for a webhook configured to carry it; empty once claimed or expired. */
  public Optional<String> token(UUID id) {
    return db.queryOne(
        "SELECT token FROM captchajobs.solve WHERE id = ? AND token IS NOT NULL",
        rs -> rs.getString(1),
        id);
  }

  /** Expires unclaimed tokens; returns how many. */
  public int expireTokens(Instant now) {
    return db.update(
        "UPDATE captchajobs.solve SET status = 'EXPIRED', token = NULL, updated_at = ?"
            + " WHERE status = 'SOLVED' AND expires_at <= ?",
        now,
        now);
  }

  /**
   * Solves that should be moving, have not changed since {@code before}, and have no live JobRunr
   * job (none recorded, or it ended, or it is gone): a crash left them without one.
   */
  public List<Solve> findStuck(Instant before, int limit) {
    return db.query(
        "SELECT "
            + COLUMNS
            + " FROM captchajobs.solve s WHERE s.status IN ('QUEUED', 'SUBMITTED')"
            + " AND s.updated_at < ? AND NOT EXISTS (SELECT 1 FROM captchajobs.jobrunr_jobs j"
            + "   WHERE j.id::text = s.job_id::text"
            + "   AND j.state IN ('SCHEDULED', 'ENQUEUED', 'PROCESSING', 'AWAITING'))"
            + " ORDER BY s.updated_at LIMIT ?",
        this::map,
        before,
        limit);
  }

  /** The last poll number recorded for a submission, 0 when it was never polled. */
  public int lastPollNo(UUID id, int submitNo) {
    return db.queryOne(
            "SELECT coalesce(max(poll_no), 0) FROM captchajobs.poll WHERE solve_id = ? AND submit_no = ?",
            rs -> rs.getInt(1),
            id,
            submitNo)
        .orElse(0);
  }

  /** Keeps the first record of each poll: intended versus actual res.php call. */
  public void recordPoll(
      UUID id, int submitNo, int pollNo, Instant intendedAt, Instant calledAt, String outcome) {
    db.update(
        "INSERT INTO captchajobs.poll (solve_id, submit_no, poll_no, intended_at, called_at, outcome)"
            + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        id,
        submitNo,
        pollNo,
        intendedAt,
        calledAt,
        outcome);
  }

  /** Records that a freed slot went to this waiting solve, and when its in.php call followed. */
  public void recordHandoff(UUID id, Instant freedAt, Instant submitAt) {
    db.update(
        "INSERT INTO captchajobs.slot_handoff (solve_id, freed_at, submit_at) VALUES (?, ?, ?)",
        id,
        freedAt,
        submitAt);
  }

  /** A solved task as the first-poll learner sees it. */
  public record SolvedSample(long sinceSubmitMillis) {}

  /** The fleet's most recent solved tasks of a type, newest first. */
  public List<SolvedSample> recentSolved(CaptchaType type, int limit) {
    return db.query(
        "SELECT (EXTRACT(EPOCH FROM (solved_at - submitted_at)) * 1000)::bigint AS millis"
            + " FROM captchajobs.solve WHERE type = ? AND solved_at IS NOT NULL AND submitted_at IS NOT NULL"
            + " ORDER BY solved_at DESC LIMIT ?",
        rs -> new SolvedSample(rs.getLong("millis")),
        type,
        limit);
  }

  private Solve map(ResultSet rs) throws SQLException {
    return new Solve(
        Db.uuid(rs, "id"),
        rs.getString("business_key"),
        CaptchaType.valueOf(rs.getString("type")),
        json.readValue(rs.getString("params"), PARAMS),
        rs.getInt("priority"),
        rs.getString("callback_url"),
        SolveState.valueOf(rs.getString("status")),
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
        Db.instant(rs, "updated_at"));
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
}
