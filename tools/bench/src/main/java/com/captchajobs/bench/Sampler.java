package com.captchajobs.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads the gate and the solve table every {@code period} while a run goes on: slots held, solves
 * waiting for a slot (the backlog) and solves ended, plus the workers' /proc counters every second.
 * The figures "under backlog" are taken over the samples where the backlog was not empty.
 */
final class Sampler implements AutoCloseable {

  /**
   * One reading of the fleet's state; {@code slotsHeld} counts the primary's ({@code captchaai})
   * gate slots only, against its cap C: a backup's slots are its own lane.
   */
  record Sample(long atMillis, int slotsHeld, int backlog, int solved, int failed) {}

  private static final String QUERY =
      Database.BENCH_TAG
          + "SELECT (SELECT count(*) FROM captchajobs.gate_slot WHERE provider = 'captchaai'"
          + "   AND solve_id IS NOT NULL AND lease_until > now()),"
          + " (SELECT count(*) FROM captchajobs.solve s WHERE s.status IN ('QUEUED', 'WAITING_FOR_THREAD')"
          + "   AND NOT EXISTS (SELECT 1 FROM captchajobs.gate_slot g WHERE g.solve_id = s.id)),"
          + " (SELECT count(*) FROM captchajobs.solve WHERE status IN ('SOLVED', 'CLAIMED', 'EXPIRED')),"
          + " (SELECT count(*) FROM captchajobs.solve WHERE status = 'FAILED')";

  private final Database db;
  private final Duration period;
  private final Supplier<List<WorkerJvm>> workers;
  private final java.util.function.LongSupplier clock;
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private Connection connection;

  /**
   * @param clock stamps the samples: the simulator's clock, so that they line up with its records
   */
  Sampler(
      Database db,
      Duration period,
      Supplier<List<WorkerJvm>> workers,
      java.util.function.LongSupplier clock) {
    this.clock = clock;
    this.db = db;
    this.period = period;
    this.workers = workers;
    this.thread = new Thread(this::loop, "bench-sampler");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Now on the clock the samples are stamped with. */
  long now() {
    return clock.getAsLong();
  }

  private void loop() {
    long lastProc = 0;
    while (running) {
      long now = clock.getAsLong();
      Sample s = read(now);
      if (s != null) {
        synchronized (samples) {
          samples.add(s);
        }
      }
      if (now - lastProc >= 1000) {
        workers.get().forEach(WorkerJvm::sample);
        lastProc = now;
      }
      ProcStats.pause(period);
    }
  }

  private Sample read(long now) {
    try {
      if (connection == null || connection.isClosed()) {
        connection = db.connect();
      }
      try (Statement st = connection.createStatement();
          ResultSet rs = st.executeQuery(QUERY)) {
        rs.next();
        return new Sample(now, rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4));
      }
    } catch (SQLException e) {
      // PostgreSQL restarting: reconnect next time
      closeConnection();
      return null;
    }
  }

  List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** The latest sample, or null before the first. */
  Sample latest() {
    synchronized (samples) {
      return samples.isEmpty() ? null : samples.get(samples.size() - 1);
    }
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeConnection();
  }

  private void closeConnection() {
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException ignored) {
      // broken anyway
    }
    connection = null;
  }
}
