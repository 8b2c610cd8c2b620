package com.captchajobs.core.internal.store;

import com.captchajobs.core.internal.db.Db;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Whether a push may ring (see "What is trusted" in docs/pingback.md): a push rings at most once
 * per res.php call on its task. Every call reserved on a task counts up the solve's {@code call_no}
 * ({@link TaskCalls#reserveCall}); a push that rings stamps its submission and that count ({@code
 * rung_submit}, {@code rung_call_no}) in one conditional update that wins for exactly one of any
 * number of pushes racing. Until the task's next call, every further push is answered from {@link
 * #state} alone: one read of the solve's row by its primary key, nothing written.
 */
public final class PushRings {

  private final Db db;

  PushRings(Db db) {
    this.db = db;
  }

  /** What a push for one submission of a solve may do. */
  public enum State {
    /** The solve does not wait for that submission's answer: the push is refused. */
    NOT_WAITING,
    /** A push already rang since the task's last call: this one does nothing. */
    RUNG,
    /** No push rang since the task's last call: this one may ring ({@link #ring}). */
    MAY_RING
  }

  /** One indexed read: what a push for submission {@code submitNo} of solve {@code id} may do. */
  public State state(UUID id, int submitNo) {
    return db.queryOne(
            "SELECT status, submits, task_id IS NOT NULL AS has_task, call_no, rung_submit,"
                + " rung_call_no FROM captchajobs.solve WHERE id = ?",
            rs -> {
              if (!"SUBMITTED".equals(rs.getString("status"))
                  || rs.getInt("submits") != submitNo
                  || !rs.getBoolean("has_task")) {
                return State.NOT_WAITING;
              }
              int rungSubmit = rs.getInt("rung_submit");
              boolean rungThisSubmit = !rs.wasNull() && rungSubmit == submitNo;
              int rungCall = rs.getInt("rung_call_no");
              boolean rungThisCall = !rs.wasNull() && rungCall == rs.getInt("call_no");
              return rungThisSubmit && rungThisCall ? State.RUNG : State.MAY_RING;
            },
            id)
        .orElse(State.NOT_WAITING);
  }

  /** A submission that waits for its pushed answer. */
  public record Waiting(UUID id, int submitNo) {}

  /**
   * The submissions that wait for a pushed answer (their in.php asked for one) and whose task has
   * not been called since {@code since}: a push for them that came while this database was away was
   * refused, and the provider does not send it again.
   */
  public List<Waiting> waitingNotCalledSince(Instant since) {
    return db.query(
        "SELECT id, submits FROM captchajobs.solve WHERE status = 'SUBMITTED'"
            + " AND task_id IS NOT NULL AND push_expected"
            + " AND (last_call_at IS NULL OR last_call_submit IS DISTINCT FROM submits"
            + " OR last_call_at < ?)",
        rs -> new Waiting(UUID.fromString(rs.getString("id")), rs.getInt("submits")),
        since);
  }

  /**
   * What a push that rang rang after: the task's call count ({@code callNo}) and its last call as
   * the 5 s between two calls count from it (reserved, then moved to its answer; null when the
   * submission's task was never called).
   */
  public record Rung(int callNo, Instant lastCallAt) {}

  /**
   * Rings for submission {@code submitNo}: what this push rang after (it is the one that rings
   * after that call), empty when the solve no longer waits for that submission or another push rang
   * since the task's last call.
   */
  public Optional<Rung> ring(UUID id, int submitNo) {
    return db.queryOne(
        "UPDATE captchajobs.solve SET rung_submit = ?, rung_call_no = call_no"
            + " WHERE id = ? AND status = 'SUBMITTED' AND submits = ? AND task_id IS NOT NULL"
            + " AND (rung_submit IS DISTINCT FROM ? OR rung_call_no IS DISTINCT FROM call_no)"
            + " RETURNING call_no,"
            + " CASE WHEN last_call_submit = ? THEN last_call_at END AS last_call_at",
        rs -> new Rung(rs.getInt("call_no"), Db.instant(rs, "last_call_at")),
        submitNo,
        id,
        submitNo,
        submitNo,
        submitNo);
  }
}
