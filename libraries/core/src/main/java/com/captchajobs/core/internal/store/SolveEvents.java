package com.captchajobs.core.internal.store;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a solve's row does not keep, for its timeline on the operator console: each submission
 * (node, task id), each push that rang, each webhook attempt with its HTTP status. A record is best
 * effort: a failed write is logged at DEBUG and never changes what the engine does. Details never
 * carry a token, an API key, a proxy or cookies. The rows go with their solve ({@code ON DELETE
 * CASCADE}), so the retention pass deletes them too.
 */
public final class SolveEvents {

  /** In.php gave a task id. */
  public static final String SUBMIT = "submit";

  /** A push for the solve's current submission rang. */
  public static final String PUSH = "push";

  /** One webhook delivery attempt. */
  public static final String WEBHOOK = "webhook";

  /** An operator requeued the failed solve. */
  public static final String REQUEUE = "requeue";

  private static final Logger log = LoggerFactory.getLogger(SolveEvents.class);
  private static final int MAX_DETAIL = 300;

  private final Db db;

  public SolveEvents(DataSource dataSource, Schema schema) {
    this(new Db(dataSource, schema));
  }

  SolveEvents(Db db) {
    this.db = db;
  }

  /** Records one event at the database's {@code now()}; never throws. */
  public void record(UUID solveId, String kind, String detail) {
    String d =
        detail == null || detail.length() <= MAX_DETAIL ? detail : detail.substring(0, MAX_DETAIL);
    try {
      db.update(
          "INSERT INTO captchajobs.solve_event (solve_id, kind, detail)"
              + " SELECT id, ?, ? FROM captchajobs.solve WHERE id = ?",
          kind,
          d,
          solveId);
    } catch (RuntimeException e) {
      log.debug("Event {} of solve {} not recorded: {}", kind, solveId, e.toString());
    }
  }

  /**
   * Records a submission: the task id and the node that holds the solve's slot (the one that called
   * in.php).
   */
  public void submitted(UUID solveId, String taskId) {
    try {
      db.update(
          "INSERT INTO captchajobs.solve_event (solve_id, kind, detail)"
              + " SELECT s.id, ?, 'submission ' || s.submits || ', task ' || ? || ', node '"
              + " || coalesce((SELECT node FROM captchajobs.gate_slot g WHERE g.solve_id = s.id),"
              + " '?') FROM captchajobs.solve s WHERE s.id = ?",
          SUBMIT,
          taskId,
          solveId);
    } catch (RuntimeException e) {
      log.debug("Submit event of solve {} not recorded: {}", solveId, e.toString());
    }
  }
}
