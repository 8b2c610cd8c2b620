package com.captchajobs.core.internal.engine;

import java.time.Duration;
import javax.sql.DataSource;

/**
 * Read-only queries of the solve table for operators and fleet gauges, kept apart from {@link
 * SolveRepository} (which moves solves) so that neither grows the other's indexes by accident.
 */
public final class SolveBrowser {

  private final Db db;

  public SolveBrowser(DataSource dataSource, Schema schema) {
    this.db = new Db(dataSource, schema);
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
}
