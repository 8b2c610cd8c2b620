package com.captchajobs.core.internal.store;

import com.captchajobs.core.internal.db.Db;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The res.php calls on a solve's task and the record of its polls: which call may go now (the
 * provider's 5-second rule, kept fleet-wide in one statement), when the last one went and what it
 * found. Reached through {@link SolveTransitions#calls()}.
 */
public final class TaskCalls {

  private final Db db;

  TaskCalls(Db db) {
    this.db = db;
  }

  /**
   * Reserves a res.php call on the task of submission {@code submitNo} at {@code calledAt}: true
   * when the solve still waits for that task's answer and no call on it was reserved after {@code
   * previousNoLaterThan}; the caller then makes the call, else it makes none. One statement, so two
   * jobs starting together cannot both call. Counts the task's calls up ({@code call_no}): the next
   * push after this call may ring again ({@link PushRings}).
   */
  public boolean reserveCall(UUID id, int submitNo, Instant calledAt, Instant previousNoLaterThan) {
    return db.update(
            "UPDATE captchajobs.solve SET last_call_at = ?, last_call_submit = ?,"
                + " call_no = call_no + 1 WHERE id = ? AND submits = ? AND status = 'SUBMITTED' AND (last_call_at IS NULL"
                + " OR last_call_submit IS DISTINCT FROM ? OR last_call_at <= ?)",
            calledAt,
            submitNo,
            id,
            submitNo,
            submitNo,
            previousNoLaterThan)
        == 1;
  }

  /**
   * What a claim of the call a push rang for came to: {@code won}, or lost for good ({@code
   * tooSoonAfter} empty: another call was reserved since the ring, or the solve moved on), or too
   * soon: the task's last call ({@code tooSoonAfter}, timed from its answer) was less than 5 s ago,
   * so the claim may be tried again 5 s after it.
   */
  public record Claim(boolean won, Optional<Instant> tooSoonAfter) {}

  /**
   * Claims the res.php call a push rang for after the task's call number {@code callNo} (see {@link
   * PushRings#ring}): reserves it as {@link #reserveCall} does, and only while no call was reserved
   * on the task since that ring. One statement, whichever number of workers try: one wins, and
   * every other one learns from the same statement that it lost.
   */
  public Claim claimPushedCall(
      UUID id, int submitNo, int callNo, Instant calledAt, Instant previousNoLaterThan) {
    return db.queryOne(
            "WITH claimed AS (UPDATE captchajobs.solve SET last_call_at = ?, last_call_submit = ?,"
                + " call_no = call_no + 1 WHERE id = ? AND submits = ? AND status = 'SUBMITTED'"
                + " AND task_id IS NOT NULL AND call_no = ? AND (last_call_at IS NULL"
                + " OR last_call_submit IS DISTINCT FROM ? OR last_call_at <= ?) RETURNING id)"
                + " SELECT EXISTS (SELECT 1 FROM claimed) AS won, s.last_call_at,"
                + " (s.submits = ? AND s.status = 'SUBMITTED' AND s.task_id IS NOT NULL"
                + " AND s.call_no = ? AND s.last_call_submit = ?) AS open"
                + " FROM captchajobs.solve s WHERE s.id = ?",
            rs ->
                rs.getBoolean("won")
                    ? new Claim(true, Optional.empty())
                    : new Claim(
                        false,
                        rs.getBoolean("open")
                            ? Optional.ofNullable(Db.instant(rs, "last_call_at"))
                            : Optional.empty()),
            calledAt,
            submitNo,
            id,
            submitNo,
            callNo,
            submitNo,
            previousNoLaterThan,
            submitNo,
            callNo,
            submitNo,
            id)
        .orElse(new Claim(false, Optional.empty()));
  }

  /**
   * Moves the task's last call to {@code answeredAt}, when its answer came back (never back in
   * time). The provider received the call at some instant between its reservation and its answer;
   * timed from the answer, the next call keeps 5 s from it however late the call arrived there.
   */
  public void callAnswered(UUID id, int submitNo, Instant answeredAt) {
    db.update(
        "UPDATE captchajobs.solve SET last_call_at = ? WHERE id = ? AND last_call_submit = ?"
            + " AND last_call_at < ?",
        answeredAt,
        id,
        submitNo,
        answeredAt);
  }

  /** The last res.php call reserved on the task of submission {@code submitNo}, if any. */
  public Optional<Instant> lastReservedCall(UUID id, int submitNo) {
    return db.queryOne(
        "SELECT last_call_at FROM captchajobs.solve WHERE id = ? AND last_call_submit = ?"
            + " AND last_call_at IS NOT NULL",
        rs -> Db.instant(rs, "last_call_at"),
        id,
        submitNo);
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

  /**
   * Records a poll: intended versus actual res.php call; a retry of the same poll keeps the later
   * call.
   */
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
}
