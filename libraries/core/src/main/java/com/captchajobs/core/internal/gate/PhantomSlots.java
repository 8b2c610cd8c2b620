package com.captchajobs.core.internal.gate;

import com.captchajobs.core.internal.db.Db;
import java.time.Duration;
import java.time.Instant;

/**
 * The phantom holders of the gate's slots (made by {@link FleetGate#holdAfterLostSubmit}: a task of
 * a lost in.php reply or of a dead node may run at the provider) and the evidence that frees them
 * early: the provider's working threads against the known tasks that were running when it was read.
 * Freed only here, by the repair pass ({@code PhantomRelease}).
 */
public final class PhantomSlots {

  private final Db db;

  PhantomSlots(Db db) {
    this.db = db;
  }

  /** The database's clock now ({@code clock_timestamp()}), the one every row's time is on. */
  public Instant databaseNow() {
    return db.queryOne("SELECT clock_timestamp()", rs -> Db.instant(rs, "clock_timestamp"))
        .orElseThrow();
  }

  /** Phantom holders held now on {@code provider}'s slots, of any age. */
  public int held(String provider) {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.gate_slot WHERE provider = ?"
                + " AND phantom AND solve_id IS NOT NULL AND lease_until > now()",
            rs -> rs.getInt(1),
            provider)
        .orElse(0);
  }

  /**
   * What the gate can prove about a provider's reading taken between {@code before} and {@code
   * after} (database time): the phantoms held now on that provider's slots that were made before
   * it, and the known tasks that were running at that provider when it was taken (a provider's
   * threadsinfo counts its own key's tasks only, so the others' slots and tasks are left out). A
   * known task counts only with evidence that its answer was not ready then: its task id was stored
   * before the reading, and either a call made after the reading was answered "not ready", or its
   * in.php asked for a pingback and its answer is still awaited (its slot held, and no push rang
   * for the submission) or was pushed more than {@link #ANSWER_LAG} after the reading (a pushed
   * answer arrives within that of being ready). A task answered at the provider but not yet here
   * when the reading was judged, or answered here just after the reading, counts as not running; so
   * does a task whose push rang but whose fetch has not stored the answer (waiting out the 5-second
   * rule, or failed), whenever the push came, since the ring is not timed; and so does a task that
   * ended otherwise (an error, given up) without a "not ready" call after the reading, whatever its
   * time.
   */
  public record Evidence(int phantoms, int knownRunning) {}

  /**
   * Room for a node's clock against the database's, where a call's time is the node's (the node's
   * clock is the database's as measured over a round trip, see {@code DatabaseClock}).
   */
  private static final Duration CLOCK_MARGIN = Duration.ofMillis(100);

  /** The longest a pushed answer is taken to need from ready at the provider to stored here. */
  public static final Duration ANSWER_LAG = Duration.ofMillis(250);

  public Evidence evidence(String provider, Instant before, Instant after) {
    Instant polledAfter = after.plus(CLOCK_MARGIN);
    Instant answeredAfter = after.plus(ANSWER_LAG);
    return db.queryOne(
            "SELECT (SELECT count(*) FROM captchajobs.gate_slot WHERE phantom"
                + "   AND provider = ? AND solve_id IS NOT NULL AND lease_until > now() AND acquired_at <= ?),"
                // unanswered, holding its slot
                + " (SELECT count(*) FROM captchajobs.gate_slot g JOIN captchajobs.solve s"
                + "   ON s.id = g.solve_id WHERE NOT g.phantom AND g.provider = ? AND g.lease_until > now()"
                + "   AND s.status = 'SUBMITTED' AND s.task_stored_at <= ?"
                // a push that rang for the submission says its answer is ready: not awaited
                + "   AND ((s.push_expected AND s.rung_submit IS DISTINCT FROM s.submits)"
                + "     OR EXISTS (SELECT 1 FROM captchajobs.poll p"
                + "     WHERE p.solve_id = s.id AND p.submit_no = s.submits"
                + "     AND p.outcome = 'CAPCHA_NOT_READY' AND p.called_at >= ?)))"
                // ended since: solved by a pushed answer that arrived well after the reading, or
                // found not ready by a call made after it
                + " + (SELECT count(*) FROM captchajobs.solve s WHERE s.updated_at > ?"
                + "   AND COALESCE(s.provider, 'captchaai') = ?"
                + "   AND s.status <> 'SUBMITTED' AND s.task_stored_at <= ?"
                + "   AND ((s.push_expected AND s.solved_at > ? AND NOT EXISTS (SELECT 1"
                + "       FROM captchajobs.poll p WHERE p.solve_id = s.id"
                + "       AND p.submit_no = s.submits AND p.outcome = 'SOLVED'))"
                + "     OR EXISTS (SELECT 1 FROM captchajobs.poll p WHERE p.solve_id = s.id"
                + "       AND p.submit_no = s.submits AND p.outcome = 'CAPCHA_NOT_READY'"
                + "       AND p.called_at >= ?)))",
            rs -> new Evidence(rs.getInt(1), rs.getInt(2)),
            provider,
            before,
            provider,
            before,
            polledAfter,
            polledAfter,
            provider,
            before,
            answeredAfter,
            polledAfter)
        .orElse(new Evidence(0, 0));
  }

  /**
   * Frees {@code count} phantom holders of {@code provider}'s slots made at or before {@code
   * madeBy}, those whose hold ends first: that provider showed that the tasks they stood for are
   * not running (see {@code PhantomRelease}). Returns how many were freed.
   */
  public int release(String provider, int count, Instant madeBy) {
    if (count <= 0) {
      return 0;
    }
    return db.update(
        "UPDATE captchajobs.gate_slot SET solve_id = NULL, node = NULL, server_id = NULL,"
            + " acquired_at = NULL, lease_until = NULL, freed_at = now(), phantom = false"
            + " WHERE (provider, slot_no) IN (SELECT provider, slot_no FROM captchajobs.gate_slot"
            + "   WHERE phantom AND provider = ? AND solve_id IS NOT NULL AND lease_until > now() AND acquired_at <= ?"
            + "   ORDER BY lease_until LIMIT ? FOR UPDATE SKIP LOCKED)",
        provider,
        madeBy,
        count);
  }
}
