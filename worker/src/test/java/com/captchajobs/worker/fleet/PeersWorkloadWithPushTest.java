package com.captchajobs.worker.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.TaskRecord;
import com.captchajobs.worker.testing.WorkerNode;
import com.captchajobs.worker.testing.WorkerProcess;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A measurement, not part of the build (run with {@code -Dcaptchajobs.peers=true}; {@code
 * -Dcaptchajobs.peers.push=false} for polling only): the peers' workload with answers pushed. 40
 * Turnstile solves of 3–9 s in real time, a 5-thread plan, three worker JVMs, an enqueue node that
 * also receives the pushes. Prints the wall time against the zero-lag limit (the same solve times
 * on 5 threads, each answer taken the instant it is ready, from the simulator's own task records),
 * res.php calls per solve and the pushes, all from the simulator's side.
 */
@EnabledIfSystemProperty(named = "captchajobs.peers", matches = "true")
class PeersWorkloadWithPushTest {

  static final String KEY = "peersKeyPEERSkeyPEERSkeyPEERS123";
  static final String SECRET = "peers-workload-pingback-secret-0123456789";
  static final int PLAN = 5;
  static final int SOLVES = 40;

  @Test
  void fortyTurnstileSolvesOnFiveThreadsWithPushComeCloseToTheZeroLagLimit() throws IOException {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(KEY, PLAN)
            .solveTime("turnstile", Duration.ofSeconds(3), Duration.ofSeconds(9))
            .seed(Long.getLong("captchajobs.peers.seed", 7))
            .pingbackDrop(Double.parseDouble(System.getProperty("captchajobs.peers.drop", "0")))
            .pingbackDuplicate(
                Double.parseDouble(System.getProperty("captchajobs.peers.duplicate", "0")))
            .pingbackDelay(Duration.ofMillis(Long.getLong("captchajobs.peers.delay-ms", 0)))
            .build()
            .start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
      String base = "http://127.0.0.1:" + receiver.getAddress().getPort() + Pingbacks.PATH;
      boolean push = Boolean.parseBoolean(System.getProperty("captchajobs.peers.push", "true"));
      Map<String, String> props =
          push
              ? Map.of(
                  "captchaai.threads", String.valueOf(PLAN),
                  "captchaai.pingback-url", base,
                  "captchaai.pingback-secret", SECRET)
              : Map.of("captchaai.threads", String.valueOf(PLAN));
      List<WorkerProcess> workers = new ArrayList<>();
      try (WorkerNode app =
          WorkerNode.start(
              db,
              sim.baseUrl(),
              KEY,
              Map.of("captchajobs.worker.enabled", "false", "captchaai.pingback-secret", SECRET))) {
        Pingbacks pingbacks = app.bean(Pingbacks.class);
        receiver.createContext(
            Pingbacks.PATH + "/",
            exchange -> {
              String[] parts =
                  exchange
                      .getRequestURI()
                      .getPath()
                      .substring(Pingbacks.PATH.length() + 1)
                      .split("/");
              Pingbacks.PushResult verdict =
                  parts.length == 3
                      ? pingbacks.receive(parts[0], parts[1], parts[2])
                      : Pingbacks.PushResult.REFUSED;
              exchange.sendResponseHeaders(verdict == Pingbacks.PushResult.REFUSED ? 404 : 200, -1);
              exchange.close();
            });
        receiver.start();
        for (int i = 0; i < 3; i++) {
          workers.add(WorkerProcess.start("peers-w" + i, db, sim.baseUrl(), KEY, props));
        }
        workers.forEach(WorkerProcess::awaitUp);
        SolveProbe solves = app.probe();
        long start = System.nanoTime();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < SOLVES; i++) {
          ids.add(solves.turnstile("peers-" + i));
        }
        await()
            .atMost(Duration.ofMinutes(5))
            .pollInterval(Duration.ofMillis(50))
            .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));
        double wall = (System.nanoTime() - start) / 1e9;

        List<TaskRecord> tasks = sim.tasks();
        double limit = zeroLagLimitSeconds(tasks, PLAN);
        double lagMean =
            tasks.stream()
                    .mapToLong(
                        t ->
                            solves
                                    .get(
                                        ids.stream()
                                            .filter(
                                                id ->
                                                    SolveProbe.pageUrl(solves.get(id).businessKey())
                                                        .equals(t.pageUrl()))
                                            .findFirst()
                                            .orElseThrow())
                                    .solvedAt()
                                    .toEpochMilli()
                                - t.readyAt())
                    .average()
                    .orElse(0)
                / 1000.0;
        long sent = sim.pushes().stream().filter(p -> p.event().equals(PushRecord.SENT)).count();
        long dropped =
            sim.pushes().stream().filter(p -> p.event().equals(PushRecord.DROPPED)).count();
        long duplicated =
            sim.pushes().stream().filter(p -> p.event().equals(PushRecord.DUPLICATE)).count();
        System.out.printf(
            "[peers] %s: %d solves, plan %d, 3 workers: wall %.1f s, zero-lag limit %.1f s"
                + " (%.2f); answer ready -> stored mean %.2f s; res.php per solve %.2f; in.php %d;"
                + " pushes sent %d, dropped %d, duplicated %d; max in flight %d%n",
            push ? "push" : "polling only",
            SOLVES,
            PLAN,
            wall,
            limit,
            wall / limit,
            lagMean,
            (double) sim.stats().resCalls() / SOLVES,
            sim.stats().acceptedSubmits(),
            sent,
            dropped,
            duplicated,
            sim.stats().maxInFlight());
        assertThat(ids).allMatch(id -> solves.get(id).status() == SolveStatus.SOLVED);
        assertThat(sim.stats().maxInFlight()).isLessThanOrEqualTo(PLAN);
      } finally {
        workers.forEach(WorkerProcess::close);
        receiver.stop(0);
      }
    }
  }

  /** The same solve times on {@code threads} threads in acceptance order, no lag between them. */
  static double zeroLagLimitSeconds(List<TaskRecord> tasks, int threads) {
    PriorityQueue<Long> free = new PriorityQueue<>();
    for (int i = 0; i < threads; i++) {
      free.add(0L);
    }
    long end = 0;
    for (TaskRecord t : tasks) {
      long at = free.poll() + t.solveMillis();
      end = Math.max(end, at);
      free.add(at);
    }
    return end / 1000.0;
  }
}
