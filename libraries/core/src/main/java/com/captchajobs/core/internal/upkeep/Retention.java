package com.captchajobs.core.internal.upkeep;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.jobrunr.JobRunrTables;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.time.Timers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes what is older than the retention ({@code captchajobs.retention}, 7 days by default):
 * final solves not updated since, poll timings, slot hand-off rows, and our own JobRunr jobs (solve
 * jobs and webhook deliveries) not updated since, whatever their state but PROCESSING: JobRunr
 * keeps FAILED jobs for ever, and their names and labels carry business keys. Age is measured on
 * the database's clock ({@code now()} of the pass's transaction), the clock that wrote those rows,
 * so a node whose clock is off deletes nothing early. One node at a time: the pass runs in one
 * transaction under a transaction-level advisory lock, and a node that does not get the lock skips
 * the pass. Every delete goes through an index of migration V3 ({@code updated_at}, {@code
 * called_at}, {@code freed_at}).
 */
public final class Retention implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Retention.class);

  /** What one pass deleted. */
  public record Deleted(int solves, int polls, int handoffs, int jobs) {}

  private final DataSource dataSource;
  private final Schema schema;
  private final Duration retention;
  private ScheduledExecutorService timer;

  public Retention(DataSource dataSource, Schema schema, Duration retention) {
    this.dataSource = dataSource;
    this.schema = schema;
    this.retention = retention;
  }

  /** The pass; empty when another node is running it. */
  public Optional<Deleted> run() {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        Instant now = lockedAt(c);
        if (now == null) {
          c.rollback();
          return Optional.empty();
        }
        Instant cutoff = now.minus(retention);
        int polls = delete(c, "DELETE FROM captchajobs.poll WHERE called_at < ?", cutoff);
        int handoffs = delete(c, "DELETE FROM captchajobs.slot_handoff WHERE freed_at < ?", cutoff);
        int solves =
            delete(
                c,
                "DELETE FROM captchajobs.solve WHERE updated_at < ?"
                    + " AND status IN ('SOLVED', 'CLAIMED', 'EXPIRED', 'FAILED')",
                cutoff);
        int jobs = 0;
        for (JobRunrTables tables :
            List.of(OwnJobRunr.jobTables(schema), OwnJobRunr.webhookTables(schema))) {
          jobs += deleteJobs(c, tables.tablePrefix() + "jobrunr_jobs", cutoff);
        }
        c.commit();
        return Optional.of(new Deleted(solves, polls, handoffs, jobs));
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("retention pass failed: " + e.getMessage(), e);
    }
  }

  /** Runs the pass every {@code interval}, the first one after {@code interval} too. */
  public synchronized Retention schedule(Duration interval) {
    timer = Timers.daemon("captchajobs-retention");
    Timers.every(timer, interval, this::runLogged);
    return this;
  }

  private void runLogged() {
    try {
      run()
          .filter(d -> d.solves() + d.polls() + d.handoffs() + d.jobs() > 0)
          .ifPresent(
              d ->
                  log.info(
                      "Retention ({}): deleted {} solves, {} poll rows, {} hand-off rows, {}"
                          + " JobRunr jobs",
                      retention,
                      d.solves(),
                      d.polls(),
                      d.handoffs(),
                      d.jobs()));
    } catch (RuntimeException e) {
      log.warn("Retention pass failed: {}", e.getMessage());
    }
  }

  /**
   * The database's {@code now()} once this transaction holds the pass's lock; null: it does not.
   */
  private Instant lockedAt(Connection c) throws SQLException {
    return Db.rows(
            c,
            "SELECT pg_try_advisory_xact_lock(hashtext(?)), now()",
            rs -> rs.getBoolean(1) ? rs.getTimestamp(2).toInstant() : null,
            schema.name() + ".retention")
        .get(0);
  }

  /** JobRunr's jobs of one table, absent on a node whose deliveries never started. */
  private int deleteJobs(Connection c, String table, Instant cutoff) throws SQLException {
    if (!Db.rows(c, "SELECT to_regclass(?) IS NOT NULL", rs -> rs.getBoolean(1), table).get(0)) {
      return 0;
    }
    return delete(
        c, "DELETE FROM " + table + " WHERE updatedAt < ? AND state <> 'PROCESSING'", cutoff);
  }

  private int delete(Connection c, String sql, Instant cutoff) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(schema.sql(sql))) {
      ps.setTimestamp(1, Timestamp.from(cutoff));
      return ps.executeUpdate();
    }
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
