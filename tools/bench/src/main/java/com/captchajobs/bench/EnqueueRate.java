package com.captchajobs.bench;

import com.captchajobs.core.client.CaptchaType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code --mode enqueue}: the enqueue rate of one API client alone. Starts an embedded PostgreSQL
 * and the real app node ({@link RestAppNode}, client {@value RestAppNode#CLIENT} with a cap of
 * unfinished solves above the run, so every enqueue goes through the capped insert), starts no
 * worker, and sends {@code --solves} single-solve {@code POST /api/solves} over {@value
 * BenchOptions#VIP_CONNECTIONS} connections in steps of {@value #STEP}. No solve finishes, so the
 * client's unfinished solves grow by one per request: a cost that grows with them shows as a rate
 * that falls from step to step. Prints each step's requests per second, then the whole run's, with
 * the app JVM's and PostgreSQL's CPU seconds over the run.
 *
 * <p>With no worker, nothing would ever update a stored solve, while in a real run every unfinished
 * solve is updated a few times (parked, handed a slot, submitted, polled), each update a new row
 * version with a new entry in every index over {@code updated_at}, the unfinished one included. The
 * harness stands in for that: beside the requests, its own connection updates the {@code
 * updated_at} of the client's oldest waiting solves, {@value #CHURN} row updates per request sent
 * (no status changes, so no solve leaves the count).
 */
final class EnqueueRate {

  /** Requests per printed step. */
  static final int STEP = 1000;

  /** Requests sent first, not measured (the JVM's first requests). */
  static final int WARM = 200;

  /** Row updates of waiting solves per request sent, standing in for the workers' updates. */
  static final int CHURN = 3;

  private EnqueueRate() {}

  /** Runs it and prints the figures; returns the whole run's requests per second. */
  static double run(BenchOptions o) {
    Path logs;
    try {
      logs = Files.createTempDirectory("captchajobs-bench-enqueue");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    try (Database db = o.jdbcUrl() == null ? Database.embedded() : Database.external(o.jdbcUrl());
        RestAppNode app =
            RestAppNode.start(
                new RestAppNode.Launch(
                    o.appJarOrDefault(),
                    db.nodeJdbcUrl(),
                    "1g",
                    BenchRun.APP_POOL_SIZE,
                    o.solves() + WARM + 1,
                    null,
                    logs),
                System::currentTimeMillis)) {
      int connections = BenchOptions.VIP_CONNECTIONS;
      String run = Long.toString(System.currentTimeMillis(), 36);
      // warm-up: the JVM's first requests are not the figure
      app.enqueueAll(requests(run + "-warm", 0, WARM), connections);
      boolean statements = db.resetStatements();
      double appCpu0 = ProcStats.read(app.pid()).cpuSeconds();
      double dbCpu0 = ProcStats.treeCpuSeconds(db.pid());
      long[] machine0 = ProcStats.machineTicks();
      AtomicInteger sent = new AtomicInteger();
      Thread churn = new Thread(() -> churn(db, sent), "churn");
      churn.setDaemon(true);
      churn.start();
      long start = System.nanoTime();
      System.out.printf(
          "[enqueue] %d POST /api/solves over %d connections, no worker, client cap %d%n",
          o.solves(), connections, o.solves() + WARM + 1);
      while (sent.get() < o.solves()) {
        int from = sent.get();
        int n = Math.min(STEP, o.solves() - from);
        long stepStart = System.nanoTime();
        app.enqueueAll(requests(run, from, n), connections);
        double stepSeconds = (System.nanoTime() - stepStart) / 1e9;
        System.out.printf(
            "[enqueue] requests %5d-%5d (unfinished before: %5d): %7.1f requests/s%n",
            from + 1, from + n, from + WARM, n / stepSeconds);
        sent.addAndGet(n);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      churn.interrupt();
      double appCpu = ProcStats.read(app.pid()).cpuSeconds() - appCpu0;
      double dbCpu = ProcStats.treeCpuSeconds(db.pid()) - dbCpu0;
      long[] machine1 = ProcStats.machineTicks();
      double busy =
          machine1[1] == machine0[1]
              ? 0
              : 100.0 * (machine1[0] - machine0[0]) / (machine1[1] - machine0[1]);
      double rate = o.solves() / seconds;
      System.out.printf(
          "[enqueue] %d requests in %.1f s: %.1f requests/s; app JVM CPU %.1f s (%.0f %% of one"
              + " core), PostgreSQL CPU %.1f s, machine busy %.0f %% (%d cores)%n",
          o.solves(),
          seconds,
          rate,
          appCpu,
          100 * appCpu / seconds,
          dbCpu,
          busy,
          Runtime.getRuntime().availableProcessors());
      if (statements) {
        slowest(db).forEach(line -> System.out.println("[enqueue] " + line));
      }
      System.out.println("[enqueue] app log: " + logs.resolve("app.log"));
      return rate;
    }
  }

  /**
   * Updates the oldest waiting solves' {@code updated_at}, 100 rows a statement, while fewer than
   * {@value #CHURN} row updates per request sent were made; until interrupted.
   */
  private static void churn(Database db, AtomicInteger sent) {
    long touched = 0;
    try (Connection c = db.connect();
        PreparedStatement ps =
            c.prepareStatement(
                Database.BENCH_TAG
                    + "UPDATE captchajobs.solve SET updated_at = now() WHERE id IN (SELECT id"
                    + " FROM captchajobs.solve WHERE status = 'WAITING_FOR_THREAD'"
                    + " ORDER BY updated_at LIMIT 100)")) {
      while (!Thread.currentThread().isInterrupted()) {
        if (touched >= (long) CHURN * sent.get()) {
          ProcStats.pause(Duration.ofMillis(5));
          continue;
        }
        touched += ps.executeUpdate();
      }
    } catch (SQLException e) {
      if (!Thread.currentThread().isInterrupted()) {
        System.out.println("[enqueue] churn stopped: " + e.getMessage());
      }
    }
  }

  /**
   * The app's statements that took the most time in the run, with their mean (pg_stat_statements).
   */
  private static List<String> slowest(Database db) {
    List<String> out = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement ps =
            c.prepareStatement(
                Database.BENCH_TAG
                    + "SELECT calls, round(total_exec_time::numeric, 0),"
                    + " round((total_exec_time / calls)::numeric, 3),"
                    + " left(regexp_replace(query, '\\s+', ' ', 'g'), 110)"
                    + " FROM pg_stat_statements WHERE calls > 0 AND dbid = (SELECT oid FROM pg_database"
                    + " WHERE datname = current_database()) AND query NOT LIKE '/* bench */%'"
                    + " ORDER BY total_exec_time DESC LIMIT 5");
        var rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(
            "%7d calls %6s ms, mean %6s ms: %s"
                .formatted(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)));
      }
    } catch (SQLException e) {
      out.add("statements n/a: " + e.getMessage());
    }
    return out;
  }

  private static List<AppNode.Request> requests(String run, int from, int n) {
    List<AppNode.Request> out = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      out.add(new AppNode.Request(run + "-" + i, CaptchaType.TURNSTILE, false));
    }
    return out;
  }
}
