package com.captchajobs.core.internal.store;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The engine's writes as a solve moves (see "How a solve moves" in docs/architecture.md): its
 * status changes, its submit lock, the job expected to move it next,. Every method is one
 * statement, so every change is committed before the caller does anything else (the task id in
 * particular: invariant 3). Instants that are compared with others (updated_at, expiries,
 * not_before, submit locks, deadlines) are written and compared on the database's clock ({@code
 * now()}), never a node's (invariant 11). A change that belongs to one task names it ({@code
 * task_id = ?}): an outcome of an old task never lands on a newer one (invariant 9).
 */
public final class SolveTransitions {

  private final Db db;
  private final SolveEvents events;
  private final PushRings pushRings;
  private final TaskCalls calls;

  public SolveTransitions(DataSource dataSource, Schema schema) {
    this.db = new Db(dataSource, schema);
    this.events = new SolveEvents(db);
    this.pushRings = new PushRings(db);
    this.calls = new TaskCalls(db);
  }

  /** Whether a push may ring: once per res.php call on its task. */
  public PushRings pushRings() {
    return pushRings;
  }

  /** The task's res.php calls and their record: the 5-second rule's memory. */
  public TaskCalls calls() {
    return calls;
  }

  /** The timeline records of what the row does not keep (best effort). */
  public SolveEvents events() {
    return events;
  }

  /** Parks a solve that found no free slot; false when it is no longer waiting to submit. */
  public boolean markWaiting(UUID id) {
    return db.update(
            "UPDATE captchajobs.solve SET status = 'WAITING_FOR_THREAD', waiting_since = now(),"
                + " thread_wait_since = COALESCE(thread_wait_since, now()), thread_waits = thread_waits + 1, updated_at = now()"
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
            + " waiting_since = now(), thread_wait_since = COALESCE(thread_wait_since, now()),"
            + " thread_waits = thread_waits + 1, error_code = ?, submit_lock_until = NULL,"
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
   * A task id the provider gave, as it is committed.
   *
   * @param at when in.php answered
   * @param pollJobId the job that makes the first poll: the running one, or a poll job created
   *     right after this commit
   * @param slotFreedAt when the slot this submit used was freed, if it was handed over: recorded
   *     with the task id (freed slot to in.php), in the same statement; else null
   * @param pushExpected whether the in.php call asked for a pingback (the provider pushes the
   *     answer the moment it is ready)
   * @param provider the provider that took the task; null keeps the one the solve names
   * @param price what a priced provider bills for the task, counted in its spend; null: billed by
   *     threads, as the primary
   */
  public record Submitted(
      String taskId,
      Instant at,
      UUID pollJobId,
      Instant slotFreedAt,
      boolean pushExpected,
      String provider,
      java.math.BigDecimal price) {}

  /** Commits the provider task id first, before any poll is scheduled. */
  public void markSubmitted(UUID id, Submitted s) {
    db.update(
        "WITH handoff AS (INSERT INTO captchajobs.slot_handoff (solve_id, freed_at, submit_at)"
            + "   SELECT ?, ?::timestamptz, ? WHERE ?::timestamptz IS NOT NULL)"
            + (s.price() == null ? "" : SPEND)
            + " UPDATE captchajobs.solve SET status = 'SUBMITTED', task_id = ?, submitted_at = ?,"
            + " submits = submits + 1, error_code = NULL, error_class = NULL, not_before = NULL,"
            + " submit_lock_until = NULL, job_id = ?, task_stored_at = now(), push_expected = ?,"
            + " provider = COALESCE(?, provider), thread_wait_since = NULL, updated_at = now()"
            + " WHERE id = ?",
        args(id, s));
    events.submitted(id, s.taskId());
  }

  /**
   * The spend of a priced provider's accepted task, counted in the statement that stores its id:
   * one row per provider, UTC day and type.
   */
  private static final String SPEND =
      ", spend AS (INSERT INTO captchajobs.provider_spend AS p (provider, day, type, solves, amount)"
          + "   SELECT ?, (now() AT TIME ZONE 'UTC')::date, type, 1, ?::numeric"
          + "   FROM captchajobs.solve WHERE id = ?"
          + "   ON CONFLICT (provider, day, type) DO UPDATE"
          + "   SET solves = p.solves + 1, amount = p.amount + EXCLUDED.amount)";

  private static Object[] args(UUID id, Submitted s) {
    java.util.List<Object> args =
        new java.util.ArrayList<>(
            java.util.Arrays.asList(id, s.slotFreedAt(), s.at(), s.slotFreedAt()));
    if (s.price() != null) {
      args.addAll(java.util.List.of(s.provider(), s.price(), id));
    }
    args.addAll(
        java.util.Arrays.asList(
            s.taskId(), s.at(), s.pollJobId(), s.pushExpected(), s.provider(), id));
    return args.toArray();
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
   * @param answeredVia how the answer came: {@code push} (a push rang for the fetch that found it)
   *     or {@code poll}; null: unknown
   */
  public Optional<Instant> markSolved(
      UUID id,
      String taskId,
      String token,
      String userAgent,
      Duration ttl,
      boolean polled,
      String answeredVia) {
    return db.queryOne(
        "UPDATE captchajobs.solve SET status = 'SOLVED', token = ?, user_agent = ?, solved_at = now(),"
            + " expires_at = now() + ? * interval '1 millisecond', polls = polls + ?, updated_at = now(),"
            + " answered_via = ? WHERE id = ? AND status = 'SUBMITTED' AND task_id = ?"
            + " RETURNING solved_at",
        rs -> Db.instant(rs, "solved_at"),
        token,
        userAgent,
        ttl.toMillis(),
        polled ? 1 : 0,
        answeredVia,
        id,
        taskId);
  }

  /** Ends the solve with a classified error; a solved or claimed row is never failed. */
  public void markFailed(UUID id, String code, ErrorClass errorClass) {
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

  /** A transient in.php failure: back to QUEUED, the last error kept for the record. */
  public void markRetrying(UUID id, String code, ErrorClass errorClass) {
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
}
