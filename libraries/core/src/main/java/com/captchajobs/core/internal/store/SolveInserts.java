package com.captchajobs.core.internal.store;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.model.SolveStatus;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * New solves as the enqueue side stores them (step 1 of "How a solve moves" in
 * docs/architecture.md): one statement inserts the row under its business key and takes a free slot
 * of the gate for it when no solve waits for one.
 */
public final class SolveInserts {

  private static final ObjectMapper json = JsonMapper.builder().build();

  private final Db db;

  public SolveInserts(DataSource dataSource, Schema schema) {
    this.db = new Db(dataSource, schema);
  }

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
      String client) {}

  /**
   * Inserts the solve unless its business key exists, in one statement: QUEUED holding a slot of
   * the gate when one is free and no solve waits for a slot, otherwise WAITING_FOR_THREAD. The slot
   * is taken here, leased to {@code node} for {@code lease}, so that the solve's submit job finds
   * it held and a burst of new solves is not handed slots one job at a time; a waiting solve needs
   * no job: a freed slot is handed to it. Empty when the business key exists.
   */
  public Optional<SolveStatus> insertQueuedOrWaiting(NewSolve s, String node, Duration lease) {
    return db.queryOne(
        INSERT_QUEUED_OR_WAITING,
        rs -> SolveStatus.valueOf(rs.getString(1)),
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
   *
   * <p>The count costs the same however many unfinished solves the client has: it is the client's
   * base count with the changes the triggers of the solve table recorded since folded into it
   * ({@link #FOLD_UNFINISHED}), mostly the one row its previous enqueue added. The repair pass
   * folds them too ({@link SolveRepository#foldUnfinished}).
   */
  public CappedInsert insertUnderCap(NewSolve s, String node, Duration lease, int maxUnfinished) {
    return db.underLock(
        lockName(s.client()),
        tx -> {
          int unfinished =
              tx.query(FOLD_UNFINISHED, rs -> rs.getInt(1), s.client(), s.client()).get(0);
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
          List<SolveStatus> stored =
              tx.query(
                  INSERT_QUEUED_OR_WAITING,
                  rs -> SolveStatus.valueOf(rs.getString(1)),
                  insertArgs(s, node, lease));
          if (stored.isEmpty()) {
            return CappedInsert.KEY_EXISTS;
          }
          return stored.get(0) == SolveStatus.QUEUED
              ? CappedInsert.QUEUED
              : CappedInsert.WAITING_FOR_THREAD;
        });
  }

  /**
   * A client's unfinished solves (queued, waiting, submitted) as the last committed changes left
   * them, read without the lock: base plus changes, in one snapshot.
   */
  static final String COUNT_UNFINISHED =
      "SELECT coalesce((SELECT unfinished FROM captchajobs.client_unfinished WHERE client = ?), 0)"
          + " + coalesce((SELECT sum(delta) FROM captchajobs.client_unfinished_delta"
          + " WHERE client = ?), 0)";

  /**
   * Claims the client's change rows (a row another fold deleted first is skipped once that fold
   * committed, so none is counted twice) and adds them to its base row, creating it when missing;
   * returns the new base, the client's unfinished solves.
   */
  private static final String FOLD =
      "WITH d AS (DELETE FROM captchajobs.client_unfinished_delta WHERE client = ?"
          + "   RETURNING delta),"
          + " f AS (INSERT INTO captchajobs.client_unfinished (client, unfinished)"
          + "   SELECT ?, coalesce(sum(delta), 0) FROM d"
          + "   ON CONFLICT (client) DO UPDATE"
          + "   SET unfinished = client_unfinished.unfinished + EXCLUDED.unfinished"
          + "   RETURNING unfinished)";

  /** {@link #FOLD}, answering the client's unfinished solves. */
  static final String FOLD_UNFINISHED = FOLD + " SELECT unfinished FROM f";

  /** {@link #FOLD}, answering how many change rows it folded. */
  static final String FOLD_UNFINISHED_COUNTING =
      FOLD + " SELECT (SELECT count(*) FROM d)::int FROM f";

  /** The advisory lock under which a client's unfinished solves are counted and changed. */
  static String lockName(String client) {
    return "unfinished:" + client;
  }

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
          + "   WHERE provider = 'captchaai' AND (solve_id IS NULL OR lease_until < now())"
          + "     AND slot_no < (SELECT capacity FROM captchajobs.gate WHERE id = 1)"
          + "     AND NOT EXISTS (SELECT 1 FROM captchajobs.solve WHERE status = 'WAITING_FOR_THREAD'"
          + "       AND (not_before IS NULL OR not_before <= now()))"
          + "   ORDER BY slot_no LIMIT 1 FOR UPDATE SKIP LOCKED),"
          + " w AS (SELECT NOT EXISTS (SELECT 1 FROM free) AS parks),"
          + " ins AS (INSERT INTO captchajobs.solve (id, client, business_key, type, params,"
          + "   payload_hash, priority, callback_url, status, job_id, waiting_since, thread_waits,"
          + "   thread_wait_since)"
          + "   SELECT ?, ?, ?, ?, ?::jsonb, ?, ?, ?,"
          + "   CASE WHEN w.parks THEN 'WAITING_FOR_THREAD' ELSE 'QUEUED' END,"
          + "   CASE WHEN w.parks THEN NULL ELSE ?::uuid END,"
          + "   CASE WHEN w.parks THEN now() END, CASE WHEN w.parks THEN 1 ELSE 0 END,"
          + "   CASE WHEN w.parks THEN now() END FROM w"
          + "   ON CONFLICT (client, business_key) DO NOTHING RETURNING id, status),"
          + " taken AS (UPDATE captchajobs.gate_slot g SET solve_id = ins.id, node = ?, phantom = false,"
          + "   server_id = NULL, acquired_at = now(), lease_until = now() + ? * interval '1 millisecond'"
          + "   FROM free, ins WHERE g.provider = 'captchaai' AND g.slot_no = free.slot_no AND ins.status = 'QUEUED'"
          + "   RETURNING g.slot_no)"
          + " SELECT ins.status FROM ins LEFT JOIN taken ON true";

  private static String toJson(Object value) {
    try {
      return json.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Could not write JSON: " + e.getOriginalMessage(), e);
    }
  }
}
