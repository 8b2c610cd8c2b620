package com.captchajobs.core.internal.time;

import com.captchajobs.core.internal.db.Db;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.ScheduledExecutorService;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database's clock as seen from this node (invariant "one clock" of docs/architecture.md): the
 * node's clock plus its measured offset to the database's {@code clock_timestamp()}, measured at
 * start and again every {@link #REFRESH} on a thread of its own. Every instant the engine computes
 * on a node (a submission's time, a poll's intended instant, the resume window, the solve timeout)
 * is thereby on the same clock as what the database writes with {@code now()}, whatever the node's
 * clock says. Reading it never touches the database; when a measurement fails (the database is
 * away), the last offset stays.
 */
public final class DatabaseClock extends Clock implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DatabaseClock.class);

  /** How often the offset is measured again. */
  public static final Duration REFRESH = Duration.ofSeconds(15);

  /** A round trip longer than this gives an offset too uncertain to replace the last one. */
  static final Duration MAX_ROUND_TRIP = Duration.ofSeconds(1);

  /** Offsets below this are not worth a log line. */
  static final Duration NOTABLE_OFFSET = Duration.ofSeconds(1);

  private final Clock base;
  private final DataSource dataSource;
  private final ScheduledExecutorService refresher;
  private volatile long offsetMillis;

  private DatabaseClock(Clock base, DataSource dataSource) {
    this.base = base;
    this.dataSource = dataSource;
    this.refresher = Timers.daemon("captchajobs-database-clock");
  }

  /**
   * Measures the offset once (the database must answer) and keeps it fresh in the background.
   *
   * @throws IllegalStateException when the database cannot be asked for its time
   */
  public static DatabaseClock start(DataSource dataSource, Clock base) {
    DatabaseClock clock = new DatabaseClock(base, dataSource);
    try {
      clock.offsetMillis = clock.measure();
    } catch (SQLException e) {
      clock.close();
      throw new IllegalStateException("could not read the database's clock: " + e.getMessage(), e);
    }
    if (Math.abs(clock.offsetMillis) >= NOTABLE_OFFSET.toMillis()) {
      log.warn(
          "This node's clock is {} ms off the database's; CaptchaJobs uses the database's",
          -clock.offsetMillis);
    }
    Timers.every(clock.refresher, REFRESH, clock::refresh);
    return clock;
  }

  /** The database's time minus this node's, as last measured. */
  public Duration offset() {
    return Duration.ofMillis(offsetMillis);
  }

  private void refresh() {
    try {
      offsetMillis = measure();
    } catch (SQLException | RuntimeException e) {
      log.debug("Database clock not measured this time, keeping the last offset: {}", e.toString());
    }
  }

  /** One measurement: the database's time against the middle of the round trip. */
  private long measure() throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      long before = base.millis();
      long database =
          Db.rows(connection, "SELECT clock_timestamp()", rs -> rs.getTimestamp(1).getTime())
              .get(0);
      long after = base.millis();
      if (after - before > MAX_ROUND_TRIP.toMillis()) {
        throw new SQLException("round trip of " + (after - before) + " ms, too slow to measure");
      }
      return database - (before + (after - before) / 2);
    }
  }

  @Override
  public Instant instant() {
    return base.instant().plusMillis(offsetMillis);
  }

  @Override
  public long millis() {
    return base.millis() + offsetMillis;
  }

  @Override
  public ZoneId getZone() {
    return base.getZone();
  }

  /** A fixed-offset view in another zone (the offset as it is now). */
  @Override
  public Clock withZone(ZoneId zone) {
    return Clock.offset(base.withZone(zone), offset());
  }

  @Override
  public void close() {
    refresher.shutdownNow();
  }
}
