package com.captchajobs.core.internal.store;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
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

/**
 * The solve table. Every method is one statement, so every state change is committed before the
 * caller does anything else (the task id in particular: invariant 3 of docs/architecture.md).
 * Instants that are compared with others (updated_at, expiries, not_before, leases, deadlines) are
 * written and compared on the database's clock ({@code now()}), never a node's: nodes may disagree
 * about the time (invariant 11). The {@code now} parameters some methods still take are kept for
 * their callers and no longer written.
 */
public final class SolveRepository {

  private static final String COLUMNS =
      "id, business_key, type, params::text AS params, priority, callback_url, status, task_id,"
          + " submitted_at, solved_at, expires_at, claimed_at, error_code, error_class, submits,"
          + " polls, thread_waits, unsolvable_resubmits, created_at, updated_at";
  private static final TypeReference<TreeMap<String, String>> PARAMS = new TypeReference<>() {};

  private final Db db;
  private static final ObjectMapper json = JsonMapper.builder().build();

  public SolveRepository(DataSource dataSource, Schema schema) {
    this.db = new Db(dataSource, schema);
  }

  /** The client of solves enqueued through the Java API (one trusted client). */
  public static final String JAVA_API_CLIENT = "java-api";

  /** A new solve as the enqueue side stores it, owned by {@code client}. */
  public record NewSolve(
      UUID id,
      String businessKey,
      CaptchaType type,
      Map<String, String> params,
      String payloadHash,
      int priority,
      String callbackUrl,
      UUID jobId,
      String client) {

    /** A solve of the Java API client. */
    public NewSolve(
        UUID id,
        String businessKey,
        CaptchaType type,
        Map<String, String> params,
        String payloadHash,
        int priority,
        String callbackUrl,
        UUID jobId) {
      this(
          id,
          businessKey,
          type,
          params,
          payloadHash,
          priority,
          callbackUrl,
          jobId,
          JAVA_API_CLIENT);
    }
  }

  /**
   * The row {@link #claim} took: what the public API hands out as its {@code ClaimedToken}, plus
   * when the solve was solved and its type, for the claim event. Never prints the token.
   */
  public record Claim(
      String token, String userAgent, Instant expiresAt, Instant solvedAt, CaptchaType type) {
    @Override
    public String toString() {
      return "Claim[token=("
          + (token == null ? 0 : token.length())
          + " chars), expiresAt="
          + expiresAt
          + "]";
    }
  }

  /**
   * Inserts the solve unless its business key exists, in one statement: QUEUED holding a slot of
   * the gate when one is free and no solve waits for a slot, otherwise WAITING_FOR_THREAD. The slot
   * is taken here, leased to {@code node} for {@code lease}, so that the solve's submit job finds
   * it held and a burst of new solves is not handed slots one job at a time; a waiting solve needs
   * no job: a freed slot is handed to it. Empty when the business key exists.
   */
  public Optional<SolveState> insertQueuedOrWaiting(NewSolve s, String node, Duration lease) {
    return db.queryOne(
        INSERT_QUEUED_OR_WAITING,
        rs -> SolveState.valueOf(rs.getString(1)),
        insertArgs(s, node, lease));
  }

  /** What {@link #insertUnderCap} did. */
  public enum CappedInsert {
    /** Stored QUEUED (holding a slot). */
    QUEUED,
    /** Stored WAITING_FOR_THREAD. */
    WAITING_FOR_THREAD,
    /** Nothing stored: the client already uses the business key. */
    KEY_EXISTS,
    /** Nothing stored: the client already has {@code maxUnfinished} unfinished solves. */
    OVER_CAP
  }

  /**
   * As {@link #insertQueuedOrWaiting}, only while the client has fewer than {@code maxUnfinished}
   * unfinished solves. The count and the insert run in one transaction under an advisory lock per
   * client, so concurrent enqueues of one client (on any node) are counted one after the other and
   * the cap holds exactly; other clients are not held up. A business key the client already uses is
   * {@link CappedInsert#KEY_EXISTS} even at the cap (it adds no unfinished solve).
   */
  public CappedInsert insertUnderCap(NewSolve s, String node, Duration lease, int maxUnfinished) {
    return db.underLock(
        "unfinished:" + s.client(),
        tx -> {
          int unfinished = tx.query(COUNT_UNFINISHED, rs -> rs.getInt(1), s.client()).get(0);
          if (unfinished >= maxUnfinished) {
            boolean exists =
                !tx.query(
                        "SELECT 1 FROM captchajobs.solve WHERE client = ? AND business_key = ?",
                        rs -> 1,
                        s.client(),
                        s.businessKey())
                    .isEmpty();
            return exists ? CappedInsert.KEY_EXISTS : CappedInsert.OVER_CAP;
          }
          List<SolveState> stored =
              tx.query(
                  INSERT_QUEUED_OR_WAITING,
                  rs -> SolveState.valueOf(rs.getString(1)),
                  insertArgs(s, node, lease));
          if (stored.isEmpty()) {
            return CappedInsert.KEY_EXISTS;
          }
          return stored.get(0) == SolveState.QUEUED
              ? CappedInsert.QUEUED
              : CappedInsert.WAITING_FOR_THREAD;
        });
  }

  private static final String COUNT_UNFINISHED =
      "SELECT count(*) FROM captchajobs.solve WHERE client = ?"
          + " AND status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED')";

  private Object[] insertArgs(NewSolve s, String node, Duration lease) {
    return new Object[] {
      s.id(),
      s.client(),
      s.businessKey(),
      s.type(),
      toJson(new TreeMap<>(s.params())),
      s.payloadHash(),
      s.priority(),
      s.callbackUrl(),
      s.jobId(),
      node,
      lease.toMillis()
    };
  }

  private static final String INSERT_QUEUED_OR_WAITING =
      "WITH free AS (SELECT slot_no FROM captchajobs.gate_slot"
          + "   WHERE (solve_id IS NULL OR lease_until < now())"
          + "     AND slot_no < (SELECT capacity FROM captchajobs.gate WHERE id = 1)"
          + "     AND NOT EXISTS (SELECT 1 FROM captchajobs.solve WHERE status = 'WAITING_FOR_THREAD'"
          + "       AND (not_before IS NULL OR not_before <= now()))"
          + "   ORDER BY slot_no LIMIT 1 FOR UPDATE SKIP LOCKED),"
          + " w AS (SELECT NOT EXISTS (SELECT 1 FROM free) AS parks),"
          + " ins AS (INSERT INTO captchajobs.solve (id, client, business_key, type, params,"
          + "   payload_hash, priority, callback_url, status, job_id, waiting_since, thread_waits)"
          + "   SELECT ?, ?, ?, ?, ?::jsonb, ?, ?, ?,"
          + "   CASE WHEN w.parks THEN 'WAITING_FOR_THREAD' ELSE 'QUEUED' END,"
          + "   CASE WHEN w.parks THEN NULL ELSE ?::uuid END,"
          + "   CASE WHEN w.parks THEN now() END, CASE WHEN w.parks THEN 1 ELSE 0 END FROM w"
          + "   ON CONFLICT (client, business_key) DO NOTHING RETURNING id, status),"
          + " taken AS (UPDATE captchajobs.gate_slot g SET solve_id = ins.id, node = ?, phantom = false,"
          + "   server_id = NULL, acquired_at = now(), lease_until = now() + ? * interval '1 millisecond'"
          + "   FROM free, ins WHERE g.slot_no = free.slot_no AND ins.status = 'QUEUED'"
          + "   RETURNING g.slot_no)"
          + " SELECT ins.status FROM ins LEFT JOIN taken ON true";

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

  /** The Java API client's solve with this business key. */
  public Optional<Solve> findByBusinessKey(String businessKey) {
    return findByBusinessKey(JAVA_API_CLIENT, businessKey);
  }

  public Optional<Solve> findByBusinessKey(String client, String businessKey) {
    return db.queryOne(
        "SELECT " + COLUMNS + " FROM captchajobs.solve WHERE client = ? AND business_key = ?",
        this::map,
        client,
        businessKey);
  }

  public Optional<String> payloadHash(String businessKey) {
    return payloadHash(JAVA_API_CLIENT, businessKey);
  }

  public Optional<String> payloadHash(String client, String businessKey) {
    return db.queryOne(
        "SELECT payload_hash FROM captchajobs.solve WHERE client = ? AND business_key = ?",
        rs -> rs.getString(1),
        client,
        businessKey);
  }

  /** The client that owns the solve. */
  public Optional<String> clientOf(UUID id) {
    return db.queryOne(
        "SELECT client FROM captchajobs.solve WHERE id = ?", rs -> rs.getString(1), id);
  }

  /** The client's solves not yet final (queued, waiting, submitted), for its cap. */
  public int countUnfinished(String client) {
    return db.queryOne(COUNT_UNFINISHED, rs -> rs.getInt(1), client).orElse(0);
  }

  /** Parks a solve that found no free thread; false when it is no longer waiting to submit. */
  public boolean markWaiting(UUID id, Instant now) {
    return db.update(
            "UPDATE captchajobs.solve SET status = 'WAITING_FOR_THREAD', waiting_since = now(),"
                + " thread_waits = thread_waits + 1, updated_at = now()"
                + " WHERE id = ? AND status = 'QUEUED'",
            id)
        == 1;
  }

  /**
   * The provider had no free thread: wait {@code wait} (database clock) and submit again later,
   * without spending a retry.
   */
  public void waitForThread(UUID id, Duration wait, String code) {
    db.update(
        "UPDATE captchajobs.solve SET status = 'WAITING_FOR_THREAD',"
            + " not_before = now() + ? * interval '1 millisecond',"
            + " waiting_since = now(), thread_waits = thread_waits + 1, error_code = ?, submit_lock_until = NULL,"
            + " updated_at = now() WHERE id = ? AND status IN ('QUEUED', 'WAITING_FOR_THREAD')",
        wait.toMillis(),
        code,
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
   * @param pollJobId the job that makes the first poll: the running one, or a poll job created
   *     right after this commit
   * @param slotFreedAt when the slot this submit used was freed, if it was handed over: recorded
   *     with the task id (freed slot to in.php), in the same statement
   */
  public void markSubmitted(
      UUID id, String taskId, Instant at, UUID pollJobId, Instant slotFreedAt) {
    db.update(
        "WITH handoff AS (INSERT INTO captchajobs.slot_handoff (solve_id, freed_at, submit_at)"
            + "   SELECT ?, ?::timestamptz, ? WHERE ?::timestamptz IS NOT NULL)"
            + " UPDATE captchajobs.solve SET status = 'SUBMITTED', task_id = ?, submitted_at = ?,"
            + " submits = submits + 1, error_code = NULL, error_class = NULL, not_before = NULL,"
            + " submit_lock_until = NULL, job_id = ?, updated_at = now() WHERE id = ?",
        id,
        slotFreedAt,
        at,
        slotFreedAt,
        taskId,
        at,
        pollJobId,
        id);
  }

  /**
   * After a task id that could not be stored: no run of the submit job may call in.php before
   * {@code hold} ends (the submit lock is extended), the code kept for the record.
   */
  public void holdAfterLostTaskId(UUID id, Duration hold, String code) {
    db.update(
        "UPDATE captchajobs.solve SET submit_lock_until = now() + ? * interval '1 millisecond',"
            + " not_before = now() + ? * interval '1 millisecond', error_code = ?,"
            + " error_class = 'TRANSIENT', updated_at = now() WHERE id = ? AND task_id IS NULL",
        hold.toMillis(),
        hold.toMillis(),
        code,
        id);
  }

  /**
   * Counts a res.php call that did not end the solve ({@code nextJobId} is the next poll), only
   * while the solve still runs task {@code taskId}; false (nothing changed, no next poll is due)
   * when it was given up or replaced.
   */
  public boolean markPolled(UUID id, String taskId, UUID nextJobId) {
    return db.update(
            "UPDATE captchajobs.solve SET polls = polls + 1, job_id = ?, updated_at = now()"
                + " WHERE id = ? AND task_id = ? AND status = 'SUBMITTED'",
            nextJobId,
            id,
            taskId)
        == 1;
  }

  /** Records the JobRunr job that is expected to move the solve next. */
  public void setJob(UUID id, UUID jobId) {
    db.update("UPDATE captchajobs.solve SET job_id = ? WHERE id = ?", jobId, id);
  }

  /**
   * Stores the token; solved and expiry instants are on the database clock ({@code ttl} after now),
   * like every check of them. Stored only for the current submission's task, {@code taskId}: an
   * answer for an older task of the solve (polled late or pushed) never lands on a newer one.
   * Returns the stored solve instant, empty when the row was no longer SUBMITTED with that task.
   *
   * @param polled whether a res.php call found it (counted in {@code polls}), not a push
   */
  public Optional<Instant> markSolved(
      UUID id, String taskId, String token, String userAgent, Duration ttl, boolean polled) {
    return db.queryOne(
        "UPDATE captchajobs.solve SET status = 'SOLVED', token = ?, user_agent = ?, solved_at = now(),"
            + " expires_at = now() + ? * interval '1 millisecond', polls = polls + ?, updated_at = now()"
            + " WHERE id = ? AND status = 'SUBMITTED' AND task_id = ? RETURNING solved_at",
        rs -> Db.instant(rs, "solved_at"),
        token,
        userAgent,
        ttl.toMillis(),
        polled ? 1 : 0,
        id,
        taskId);
  }

  /** Ends the solve with a classified error; a solved or claimed row is never failed. */
  public void markFailed(UUID id, String code, ErrorClass errorClass, Instant now) {
    db.update(
        "UPDATE captchajobs.solve SET status = 'FAILED', error_code = ?, error_class = ?,"
            + " token = NULL, submit_lock_until = NULL, updated_at = now()"
            + " WHERE id = ? AND status NOT IN ('SOLVED', 'CLAIMED', 'EXPIRED')",
        code,
        errorClass,
        id);
  }

  /**
   * Ends the solve with a classified error of task {@code taskId}: nothing changes when the solve
   * no longer runs that task (given up, or requeued and submitted afresh). True when it failed now.
   */
  public boolean markFailed(UUID id, String taskId, String code, ErrorClass errorClass) {
    return db.update(
            "UPDATE captchajobs.solve SET status = 'FAILED', error_code = ?, error_class = ?,"
                + " token = NULL, submit_lock_until = NULL, updated_at = now()"
                + " WHERE id = ? AND task_id = ? AND status NOT IN ('SOLVED', 'CLAIMED', 'EXPIRED')",
            code,
            errorClass,
            id,
            taskId)
        == 1;
  }

  /** A transient in.php failure: back to QUEUED, the last error kept for the record. */
  public void markRetrying(UUID id, String code, ErrorClass errorClass, Instant now) {
    db.update(
        "UPDATE captchajobs.solve SET status = 'QUEUED', error_code = ?, error_class = ?,"
            + " submit_lock_until = NULL, updated_at = now() WHERE id = ? AND status IN ('QUEUED', 'WAITING_FOR_THREAD')",
        code,
        errorClass,
        id);
  }

  /**
   * Forgets a task that can no longer be resumed so that a fresh submission may follow, only while
   * the solve still runs task {@code taskId}; false (nothing changed) when it was given up or
   * replaced meanwhile.
   *
   * @param jobId the submit job that follows, or null when the caller goes on itself
   */
  public boolean forgetTask(UUID id, String taskId, boolean unsolvable, String code, UUID jobId) {
    return db.update(
            "UPDATE captchajobs.solve SET status = 'QUEUED', task_id = NULL, submitted_at = NULL,"
                + " unsolvable_resubmits = unsolvable_resubmits + ?, error_code = ?, job_id = ?,"
                + " updated_at = now() WHERE id = ? AND task_id = ? AND status = 'SUBMITTED'",
            unsolvable ? 1 : 0,
            code,
            jobId,
            id,
            taskId)
        == 1;
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
                rs.getString(1),
                rs.getString(2),
                Db.instant(rs, "expires_at"),
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
   * on the solves it carries), with their repair counters.
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
   * Fails an unfinished solve whose life, {@code deadline} from its creation (or its last operator
   * requeue, which starts a fresh life) on the database clock, is over; true when this call failed
   * it.
   */
  public boolean failIfPastDeadline(
      UUID id, Duration deadline, String code, ErrorClass errorClass) {
    return db.update(
            "UPDATE captchajobs.solve SET status = 'FAILED', error_code = ?, error_class = ?,"
                + " token = NULL, submit_lock_until = NULL, updated_at = now()"
                + " WHERE id = ? AND status IN ('QUEUED', 'SUBMITTED', 'WAITING_FOR_THREAD')"
                + " AND coalesce(requeued_at, created_at) < now() - ? * interval '1 millisecond'",
            code,
            errorClass,
            id,
            deadline.toMillis())
        == 1;
  }

  /**
   * Runs the repair pass body unless another node runs it now (an advisory lock held for the pass);
   * false when skipped.
   */
  public boolean exclusively(Runnable pass) {
    return db.exclusively("repair-pass", pass);
  }

  /** The last poll recorded for a submission: its number and when res.php was called. */
  public record LastPoll(int pollNo, Instant calledAt) {}

  /** The last poll recorded for a submission, empty when it was never polled. */
  public Optional<LastPoll> lastPoll(UUID id, int submitNo) {
    return db.queryOne(
        "SELECT poll_no, called_at FROM captchajobs.poll WHERE solve_id = ? AND submit_no = ?"
            + " ORDER BY poll_no DESC LIMIT 1",
        rs -> new LastPoll(rs.getInt("poll_no"), Db.instant(rs, "called_at")),
        id,
        submitNo);
  }

  /**
   * When the provider last said "not ready" for a submission, or empty: the answer found after it
   * is at most this old.
   */
  public Optional<Instant> lastNotReadyAt(UUID id, int submitNo) {
    return db.queryOne(
        "SELECT called_at AS at FROM captchajobs.poll WHERE solve_id = ? AND submit_no = ?"
            + " AND outcome = 'CAPCHA_NOT_READY' ORDER BY called_at DESC LIMIT 1",
        rs -> Db.instant(rs, "at"),
        id,
        submitNo);
  }

  /** Keeps the first record of each poll: intended versus actual res.php call. */
  public void recordPoll(
      UUID id, int submitNo, int pollNo, Instant intendedAt, Instant calledAt, String outcome) {
    db.update(
        "INSERT INTO captchajobs.poll (solve_id, submit_no, poll_no, intended_at, called_at, outcome)"
            + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (solve_id, submit_no, poll_no) DO UPDATE"
            // a retry of the same poll: the later call is the one the provider's 5 s count from
            + " SET called_at = GREATEST(poll.called_at, EXCLUDED.called_at),"
            + " outcome = EXCLUDED.outcome",
        id,
        submitNo,
        pollNo,
        intendedAt,
        calledAt,
        outcome);
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
        params(rs.getString("params")),
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

  /** A solve's stored {@code params} column, read back. */
  public static TreeMap<String, String> params(String text) {
    try {
      return json.readValue(text, PARAMS);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Unreadable solve params: " + e.getOriginalMessage(), e);
    }
  }

  private static String toJson(Object value) {
    try {
      return json.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Could not write JSON: " + e.getOriginalMessage(), e);
    }
  }
}
