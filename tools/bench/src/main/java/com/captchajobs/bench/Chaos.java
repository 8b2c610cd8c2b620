package com.captchajobs.bench;

import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.DurationConverter;
import com.captchajobs.simulator.Fault;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The chaos of a chaos run, on two threads. The killer: every {@code killEvery} a random live
 * worker gets kill -9 and a replacement is started (started again until it comes up: during a
 * database outage a new node cannot start). The schedule, once each and one after the other: a
 * PostgreSQL restart (stopped and started on the same port and data), then a database outage as the
 * nodes see it (their connections reset and refused, the server running on), then a provider outage
 * (every call an HTML 502). Two kill periods lie between one event and the next.
 */
final class Chaos implements AutoCloseable {

  /** What was done to the fleet, for the report and the plot (epoch millis). */
  record Events(
      List<Kill> kills, List<long[]> postgresRestarts, List<Outage> outages, List<String> notes) {
    static Events none() {
      return new Events(List.of(), List.of(), List.of(), List.of());
    }

    /** The outage of this kind, or null when it did not happen. */
    Outage outage(String kind) {
      return outages.stream().filter(o -> o.kind().equals(kind)).findFirst().orElse(null);
    }
  }

  record Kill(long atMillis, String worker) {}

  /**
   * An outage: {@link #DATABASE} or {@link #PROVIDER}, from–to (epoch millis), and what was going
   * on when it started.
   */
  record Outage(String kind, long fromMillis, long toMillis, String detail) {
    static final String DATABASE = "database";
    static final String PROVIDER = "provider";

    double seconds() {
      return (toMillis - fromMillis) / 1000.0;
    }
  }

  /** When the scheduled events happen, from the start of the run. */
  record Schedule(
      Duration killEvery,
      Duration restartAt,
      Duration dbOutageAt,
      Duration dbOutage,
      Duration providerOutageAt,
      Duration providerOutage) {

    static Schedule of(BenchOptions o) {
      Duration gap = o.killEvery().multipliedBy(2);
      Duration restartAt = Duration.ofMillis(Math.max(15_000, o.killEvery().toMillis() * 3 / 2));
      Duration dbAt = restartAt.plus(gap);
      Duration providerAt = o.dbOutage().isZero() ? dbAt : dbAt.plus(o.dbOutage()).plus(gap);
      return new Schedule(
          o.killEvery(), restartAt, dbAt, o.dbOutage(), providerAt, o.providerOutage());
    }
  }

  private final List<WorkerJvm> fleet;
  private final Function<String, WorkerJvm> startWorker;
  private final Database db;
  private final CaptchaAiSimulator sim;
  private final Schedule schedule;
  private final Random random;
  private final long start;
  private final List<Kill> kills = new ArrayList<>();
  private final List<long[]> restarts = new ArrayList<>();
  private final List<Outage> outages = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final Thread killer;
  private final Thread events;
  private volatile boolean running = true;
  private volatile boolean dbDown;
  private volatile boolean providerDown;
  private int nextWorker;

  Chaos(
      List<WorkerJvm> fleet,
      Function<String, WorkerJvm> startWorker,
      Database db,
      CaptchaAiSimulator sim,
      Schedule schedule,
      long seed) {
    this.fleet = fleet;
    this.startWorker = startWorker;
    this.db = db;
    this.sim = sim;
    this.start = sim.nowMillis();
    this.schedule = schedule;
    this.random = new Random(seed);
    this.nextWorker = fleet.size();
    this.killer = new Thread(this::killLoop, "bench-chaos-kill");
    this.killer.setDaemon(true);
    this.events = new Thread(this::eventLoop, "bench-chaos-events");
    this.events.setDaemon(true);
    this.killer.start();
    this.events.start();
  }

  private void killLoop() {
    long nextKill = start + schedule.killEvery().toMillis();
    while (running) {
      if (sim.nowMillis() >= nextKill) {
        killOne();
        // every killEvery, but never before the last replacement is up
        nextKill = Math.max(nextKill + schedule.killEvery().toMillis(), sim.nowMillis());
      }
      ProcStats.pause(Duration.ofMillis(100));
    }
  }

  private void eventLoop() {
    if (!waitUntil(schedule.restartAt())) {
      return;
    }
    if (db.restartable()) {
      long stopAt = sim.nowMillis();
      try {
        db.restart();
        synchronized (this) {
          restarts.add(new long[] {stopAt, sim.nowMillis()});
        }
        log("PostgreSQL restarted (down " + (sim.nowMillis() - stopAt) + " ms)");
      } catch (RuntimeException e) {
        note("PostgreSQL restart failed: " + e.getMessage());
      }
    } else {
      note(
          "PostgreSQL restart skipped: an external database (--jdbc-url) is not restarted by the bench");
    }
    if (!schedule.dbOutage().isZero()) {
      if (!waitUntil(schedule.dbOutageAt())) {
        return;
      }
      if (db.canCutOff()) {
        String detail = dueNow();
        int connections = db.nodeConnections();
        long from = sim.nowMillis();
        dbDown = true;
        db.outage(true);
        log(
            "database outage for "
                + DurationConverter.format(schedule.dbOutage())
                + ": "
                + connections
                + " node connection(s) reset, new ones refused; "
                + detail);
        ProcStats.pause(schedule.dbOutage(), () -> !running);
        db.outage(false);
        dbDown = false;
        record(new Outage(Outage.DATABASE, from, sim.nowMillis(), detail));
        log("database outage over");
      } else {
        note("database outage skipped: an external database (--jdbc-url) is not behind the proxy");
      }
    }
    if (!schedule.providerOutage().isZero()) {
      if (!waitUntil(schedule.providerOutageAt())) {
        return;
      }
      String detail = dueNow();
      long from = sim.nowMillis();
      providerDown = true;
      sim.startOutage(Fault.HTML_502);
      log(
          "provider outage for "
              + DurationConverter.format(schedule.providerOutage())
              + ": every call an HTML 502; "
              + detail);
      ProcStats.pause(schedule.providerOutage(), () -> !running);
      sim.endOutage();
      providerDown = false;
      record(new Outage(Outage.PROVIDER, from, sim.nowMillis(), detail));
      log("provider outage over");
    }
  }

  /** Sleeps until {@code at} after the start; false when the run ended first. */
  private boolean waitUntil(Duration at) {
    while (running && sim.nowMillis() < start + at.toMillis()) {
      ProcStats.pause(Duration.ofMillis(100));
    }
    if (!running) {
      note("chaos schedule cut short: the run ended before " + DurationConverter.format(at));
    }
    return running;
  }

  /** The solves submitted and waiting now (polls due), read directly. */
  private String dueNow() {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                Database.BENCH_TAG
                    + "SELECT count(*) FILTER (WHERE status = 'SUBMITTED'),"
                    + " count(*) FILTER (WHERE status IN ('QUEUED', 'WAITING_FOR_THREAD'))"
                    + " FROM captchajobs.solve")) {
      rs.next();
      return rs.getLong(1)
          + " solve(s) submitted with polls due, "
          + rs.getLong(2)
          + " waiting for a slot";
    } catch (SQLException e) {
      return "solves submitted: unknown (" + e.getMessage() + ")";
    }
  }

  private void killOne() {
    List<WorkerJvm> live = fleet.stream().filter(w -> w.alive() && !w.killed()).toList();
    if (live.isEmpty()) {
      return;
    }
    WorkerJvm victim = live.get(random.nextInt(live.size()));
    victim.kill();
    synchronized (this) {
      kills.add(new Kill(sim.nowMillis(), victim.name()));
    }
    log("kill -9 " + victim.name());
    while (running) {
      String name = "bench-w" + (nextWorker++);
      WorkerJvm replacement = startWorker.apply(name);
      fleet.add(replacement);
      try {
        replacement.awaitUp(Duration.ofSeconds(300));
        log(name + " is up (replaces " + victim.name() + ")");
        return;
      } catch (RuntimeException e) {
        replacement.close();
        note("replacement " + name + " did not come up, starting another: " + e.getMessage());
        ProcStats.pause(Duration.ofSeconds(2));
      }
    }
  }

  synchronized Events events() {
    return new Events(
        List.copyOf(kills), List.copyOf(restarts), List.copyOf(outages), List.copyOf(notes));
  }

  private synchronized void record(Outage outage) {
    outages.add(outage);
  }

  private synchronized void note(String note) {
    notes.add(note);
    log(note);
  }

  private static void log(String line) {
    System.out.println("[bench] chaos: " + line);
  }

  @Override
  public void close() {
    running = false;
    try {
      events.join(10_000);
      killer.join(150_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (dbDown) {
      db.outage(false);
    }
    if (providerDown) {
      sim.endOutage();
    }
  }
}
