package com.captchajobs.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The chaos of a chaos run: every {@code killEvery} a random live worker gets kill -9 and a
 * replacement is started; once, PostgreSQL is stopped and started again on the same port and data.
 */
final class Chaos implements AutoCloseable {

  /** What was done to the fleet, for the report and the plot (epoch millis). */
  record Events(List<Kill> kills, List<long[]> postgresRestarts, List<String> notes) {
    static Events none() {
      return new Events(List.of(), List.of(), List.of());
    }
  }

  record Kill(long atMillis, String worker) {}

  private final List<WorkerJvm> fleet;
  private final Function<String, WorkerJvm> startWorker;
  private final Database db;
  private final Duration killEvery;
  private final Duration restartPostgresAfter;
  private final Random random;
  private final List<Kill> kills = new ArrayList<>();
  private final List<long[]> restarts = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private int nextWorker;

  Chaos(
      List<WorkerJvm> fleet,
      Function<String, WorkerJvm> startWorker,
      Database db,
      Duration killEvery,
      Duration restartPostgresAfter,
      long seed) {
    this.fleet = fleet;
    this.startWorker = startWorker;
    this.db = db;
    this.killEvery = killEvery;
    this.restartPostgresAfter = restartPostgresAfter;
    this.random = new Random(seed);
    this.nextWorker = fleet.size();
    this.thread = new Thread(this::loop, "bench-chaos");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void loop() {
    long start = System.currentTimeMillis();
    long nextKill = start + killEvery.toMillis();
    long restartAt = start + restartPostgresAfter.toMillis();
    boolean restarted = !db.restartable();
    if (restarted) {
      note(
          "PostgreSQL restart skipped: an external database (--jdbc-url) is not restarted by the bench");
    }
    while (running) {
      long now = System.currentTimeMillis();
      if (!restarted && now >= restartAt) {
        restarted = true;
        long stopAt = System.currentTimeMillis();
        try {
          db.restart();
          synchronized (this) {
            restarts.add(new long[] {stopAt, System.currentTimeMillis()});
          }
          log("PostgreSQL restarted (down " + (System.currentTimeMillis() - stopAt) + " ms)");
        } catch (RuntimeException e) {
          note("PostgreSQL restart failed: " + e.getMessage());
        }
      }
      if (now >= nextKill) {
        nextKill = now + killEvery.toMillis();
        killOne();
      }
      ProcStats.pause(Duration.ofMillis(200));
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
      kills.add(new Kill(System.currentTimeMillis(), victim.name()));
    }
    String name = "bench-w" + (nextWorker++);
    log("kill -9 " + victim.name() + "; starting " + name);
    try {
      WorkerJvm replacement = startWorker.apply(name);
      fleet.add(replacement);
      replacement.awaitUp(Duration.ofSeconds(120));
    } catch (RuntimeException e) {
      note("replacement " + name + " did not come up: " + e.getMessage());
    }
  }

  synchronized Events events() {
    return new Events(List.copyOf(kills), List.copyOf(restarts), List.copyOf(notes));
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
      thread.join(150_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
