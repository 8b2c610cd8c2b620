package com.captchajobs.worker.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.stats.Percentiles;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.FleetFigures;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.SimulatorStats;
import com.captchajobs.simulator.TaskRecord;
import com.captchajobs.worker.testing.WorkerNode;
import com.captchajobs.worker.testing.WorkerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.ProcessingState;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.BackgroundJobServerStatus;
import org.jobrunr.storage.JobNotFoundException;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.navigation.AmountRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Several worker JVMs against one database and one simulator: the cap holds for the whole fleet,
 * and a kill -9 neither loses a solve nor submits one twice, except where the victim died between
 * in.php's answer and storing the task id: that reply is lost with it, exactly like a reply lost on
 * the network, and the solve is submitted again once the submit lock of the dead run lapses.
 */
@Execution(ExecutionMode.CONCURRENT)
class FleetTest {

  static final String KEY = "fleetKeyFLEETkeyFLEETkey12345678";
  static final int PLAN_THREADS = 5;

  static Map<String, String> workerProps() {
    return Map.of(
        "captchaai.threads", String.valueOf(PLAN_THREADS),
        "captchaai.first-poll-wait.TURNSTILE", "1s",
        "captchaai.min-first-poll-wait", "1s",
        "captchaai.learn-after-solves", "1000",
        // time scaled: a phantom held for a killed worker's in.php waits out a shorter hold than a
        // minute when no poll shows the known tasks running (still longer than any Turnstile task)
        "captchaai.lost-submit-hold", "12s");
  }

  /** A node in this JVM that only enqueues (no job server), like an app node. */
  static WorkerNode enqueueNode(String jdbcUrl, String baseUrl) {
    return WorkerNode.start(jdbcUrl, baseUrl, KEY, Map.of("captchajobs.worker.enabled", "false"));
  }

  @Test
  void threeWorkerJvmsNeverExceedThePlanAndSolveEverythingOnce() {
    try (Fleet fleet = new Fleet("fleet", 3, 60, Duration.ofMillis(400), Duration.ofMillis(1200))) {
      SolveProbe solves = fleet.solves;
      List<UUID> ids = fleet.ids;

      fleet.awaitEverySolveSolved(Duration.ofMinutes(3), Duration.ofMillis(200));
      SimulatorStats stats = fleet.sim.stats();
      assertThat(stats.maxInFlight()).isLessThanOrEqualTo(PLAN_THREADS);
      assertThat(stats.rejected("ERROR_ZERO_BALANCE")).isZero();
      assertThat(stats.duplicateSubmits()).isZero();
      assertThat(stats.submitsByPageUrl().values()).hasSize(60).allMatch(n -> n == 1L);
      printFigures("three worker JVMs, plan 5, 60 Turnstile solves", solves, stats);
    }
  }

  @Test
  void killingAWorkerMidRunLosesNoSolveResubmitsOnlyRepliesItDiedBeforeStoringAndFreesItsSlots() {
    try (Fleet fleet =
        new Fleet("chaos", 2, 30, Duration.ofMillis(1500), Duration.ofMillis(3000))) {
      SolveProbe solves = fleet.solves;
      List<UUID> ids = fleet.ids;
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () ->
                  ids.stream().filter(id -> solves.get(id).status() == SolveStatus.SOLVED).count()
                      >= 5);
      int heldByVictim =
          solves
              .jdbc()
              .queryForObject(
                  "SELECT count(*) FROM captchajobs.gate_slot WHERE node = 'chaos-w0'",
                  Integer.class);
      fleet.workers.get(0).kill();
      long killedAt = System.currentTimeMillis();

      fleet.awaitEverySolveSolved(Duration.ofMinutes(4), Duration.ofMillis(500));
      SimulatorStats stats = fleet.sim.stats();
      Map<String, List<TaskRecord>> tasksByKey =
          fleet.sim.tasks().stream().collect(Collectors.groupingBy(TaskRecord::pageUrl));
      assertThat(tasksByKey).hasSize(30);
      List<TaskRecord> lostWithVictim = new ArrayList<>();
      tasksByKey.forEach(
          (page, tasks) -> {
            // One task the engine worked on; any other is one whose reply died with the victim.
            assertThat(tasks).as(page).filteredOn(t -> !t.neverAskedAbout()).hasSize(1);
            tasks.stream().filter(TaskRecord::neverAskedAbout).forEach(lostWithVictim::add);
          });
      assertThat(lostWithVictim)
          .as("tasks nobody ever polled: only in.php calls the victim made before it died")
          .allMatch(t -> t.acceptedAt() <= killedAt);
      assertThat(stats.maxInFlight()).isLessThanOrEqualTo(PLAN_THREADS);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  solves
                          .jdbc()
                          .queryForObject(
                              "SELECT count(*) FROM captchajobs.gate_slot WHERE solve_id IS NOT NULL",
                              Integer.class)
                      == 0);
      System.out.printf(
          "[fleet] kill -9 run: victim held %d slot(s) when killed; all 30 solved; %d in.php"
              + " reply(ies) died with it unrecorded and were submitted again%n",
          heldByVictim, lostWithVictim.size());
    }
  }

  @Test
  void aKilledWorkersRunningSolvesAndTheirSlotsAreBackWithinFiveSecondsWithoutANewInPhp() {
    try (Fleet fleet = new Fleet("dead", 2, 10, Duration.ofMillis(6000), Duration.ofMillis(9000))) {
      SolveProbe solves = fleet.solves;
      List<UUID> ids = fleet.ids;
      StorageProvider storage = fleet.app.bean(StorageProvider.class);
      // Wait until the victim is running polls of submitted solves (jobs waiting in its threads).
      List<UUID> victims = awaitSubmittedSolvesRunningOn(storage, solves, "dead-w0");
      fleet.workers.get(0).kill();
      long killedAt = System.nanoTime();

      await()
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> everyHeldSlotAndRunningSolveIsOffTheVictim(storage, solves, "dead-w0"));
      double seconds = (System.nanoTime() - killedAt) / 1e9;

      fleet.awaitEverySolveSolved(Duration.ofMinutes(2), Duration.ofMillis(200));
      for (UUID id : victims) {
        assertThat(fleet.sim.stats().submitsByPageUrl())
            .as("in.php calls of a solve the victim was polling")
            .containsEntry(SolveProbe.pageUrl(solves.get(id).businessKey()), 1L);
      }
      assertThat(fleet.sim.stats().maxInFlight()).isLessThanOrEqualTo(PLAN_THREADS);
      System.out.printf(
          "[fleet] kill -9 with %d submitted solve(s) running on the victim: slots and solves"
              + " back on the survivor after %.1f s, none submitted again%n",
          victims.size(), seconds);
    }
  }

  /**
   * JobRunr's master is its oldest registered server, and only the master moves SCHEDULED jobs
   * (retries after a transient error, later submits) to ENQUEUED. JobRunr drops a dead server only
   * after its server timeout (4 poll intervals, 20 s here); until then a killed master leaves every
   * retry waiting while slots stand free (the chaos run chained three dead masters into a minute).
   */
  @Test
  void aKilledJobRunrMasterHandsTheRoleToTheSurvivorWithinFiveSecondsSoADueRetryStillRuns() {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(KEY, PLAN_THREADS)
            .solveTime("turnstile", Duration.ofMillis(400), Duration.ofMillis(1200))
            .build()
            .start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      List<WorkerProcess> workers = new ArrayList<>();
      try (WorkerNode app = enqueueNode(db, sim.baseUrl())) {
        // One after the other: the first is the oldest server, so JobRunr's master.
        for (int i = 0; i < 2; i++) {
          workers.add(
              WorkerProcess.start("master-w" + i, db, sim.baseUrl(), KEY, workerProps()).awaitUp());
        }
        StorageProvider storage = app.bean(StorageProvider.class);
        await()
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> "master-w0".equals(masterName(storage)));
        SolveProbe solves = app.probe();

        workers.get(0).kill();
        long killedAt = System.nanoTime();
        sim.injectNext(Endpoint.IN, Fault.SERVER_ERROR); // its retry is a SCHEDULED job
        UUID id = solves.turnstile("master-0");

        await()
            .atMost(Duration.ofSeconds(5))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> "master-w1".equals(masterName(storage)));
        double seconds = (System.nanoTime() - killedAt) / 1e9;
        await()
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> solves.get(id).status().isFinal());
        assertThat(solves.get(id).status()).isEqualTo(SolveStatus.SOLVED);
        assertThat(sim.stats().submitsByPageUrl())
            .containsEntry(SolveProbe.pageUrl(solves.get(id).businessKey()), 1L);
        System.out.printf(
            "[fleet] kill -9 of JobRunr's master: the survivor is master after %.1f s%n", seconds);
      } finally {
        workers.forEach(WorkerProcess::close);
      }
    }
  }

  /** The name of JobRunr's master: its longest running registered server. */
  private static String masterName(StorageProvider storage) {
    UUID master = storage.getLongestRunningBackgroundJobServerId();
    return storage.getBackgroundJobServers().stream()
        .filter(s -> s.getId().equals(master))
        .map(BackgroundJobServerStatus::getName)
        .findFirst()
        .orElse(null);
  }

  @Test
  void aWorkerFrozenForEightSecondsKeepsItsRunningSolvesAndNothingIsSubmittedTwice()
      throws Exception {
    try (Fleet fleet = new Fleet("slow", 2, 10, Duration.ofMillis(6000), Duration.ofMillis(9000))) {
      SolveProbe solves = fleet.solves;
      List<UUID> ids = fleet.ids;
      StorageProvider storage = fleet.app.bean(StorageProvider.class);
      List<UUID> frozen = awaitSubmittedSolvesRunningOn(storage, solves, "slow-w0");
      long pid = fleet.workers.get(0).process().pid();
      signal("STOP", pid); // a stop-the-world pause: the JVM answers nothing, the kernel does
      try {
        // Its liveness lock stays: the survivor takes none of the frozen node's running solves.
        await()
            .during(Duration.ofSeconds(8))
            .atMost(Duration.ofSeconds(9))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> submittedSolvesRunOn(storage, solves, "slow-w0").containsAll(frozen));
      } finally {
        signal("CONT", pid);
      }

      fleet.awaitEverySolveSolved(Duration.ofMinutes(2), Duration.ofMillis(200));
      assertThat(fleet.sim.stats().submitsByPageUrl().values()).hasSize(10).allMatch(n -> n == 1L);
      assertThat(fleet.sim.stats().maxInFlight()).isLessThanOrEqualTo(PLAN_THREADS);
    }
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).start();
    assertThat(kill.waitFor()).as("kill -" + signal).isZero();
  }

  /** Waits until {@code node} runs submitted solves (jobs waiting in its threads): those. */
  static List<UUID> awaitSubmittedSolvesRunningOn(
      StorageProvider storage, SolveProbe solves, String node) {
    List<UUID> running = new ArrayList<>();
    await()
        .atMost(Duration.ofMinutes(1))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              running.clear();
              running.addAll(submittedSolvesRunOn(storage, solves, node));
              return !running.isEmpty();
            });
    return running;
  }

  /** Submitted solves whose recorded job is PROCESSING on the server named {@code node}. */
  static List<UUID> submittedSolvesRunOn(StorageProvider storage, SolveProbe solves, String node) {
    List<UUID> running = new ArrayList<>();
    for (Job job :
        storage.getJobList(StateName.PROCESSING, new AmountRequest("updatedAt:ASC", 500))) {
      if (job.getJobState() instanceof ProcessingState p && node.equals(p.getServerName())) {
        running.addAll(
            solves
                .jdbc()
                .queryForList(
                    "SELECT id FROM captchajobs.solve WHERE job_id = ? AND status = 'SUBMITTED'",
                    UUID.class,
                    job.getId()));
      }
    }
    return running;
  }

  /**
   * No job runs on {@code node} any more, and every solve that holds a slot (or is unfinished) has
   * a live job elsewhere.
   */
  static boolean everyHeldSlotAndRunningSolveIsOffTheVictim(
      StorageProvider storage, SolveProbe solves, String node) {
    for (Job job :
        storage.getJobList(StateName.PROCESSING, new AmountRequest("updatedAt:ASC", 500))) {
      if (job.getJobState() instanceof ProcessingState p && node.equals(p.getServerName())) {
        return false;
      }
    }
    List<UUID> jobIds =
        solves
            .jdbc()
            .queryForList(
                "SELECT s.job_id FROM captchajobs.solve s JOIN captchajobs.gate_slot g"
                    + " ON g.solve_id = s.id WHERE NOT g.phantom"
                    + " AND s.status IN ('QUEUED', 'SUBMITTED')",
                UUID.class);
    for (UUID jobId : jobIds) {
      try {
        StateName state = storage.getJobById(jobId).getState();
        if (state != StateName.SCHEDULED
            && state != StateName.ENQUEUED
            && state != StateName.PROCESSING) {
          return false;
        }
      } catch (JobNotFoundException e) {
        return false;
      }
    }
    return true;
  }

  static void printFigures(String run, SolveProbe solves, SimulatorStats stats) {
    List<Double> handoff = FleetFigures.handoffDelays(solves.jdbc());
    List<Double> lateness = FleetFigures.pollLateness(solves.jdbc());
    long solved =
        solves
            .jdbc()
            .queryForObject(
                "SELECT count(*) FROM captchajobs.solve WHERE status = 'SOLVED'", Long.class);
    System.out.printf("[fleet] %s%n", run);
    System.out.printf(
        "[fleet]   simulator max in flight: %d (cap %d)%n", stats.maxInFlight(), PLAN_THREADS);
    System.out.printf(
        "[fleet]   gate-slot utilisation under backlog: %.1f %%%n",
        100 * FleetFigures.gateUtilisationUnderBacklog(solves.jdbc(), PLAN_THREADS));
    System.out.printf(
        "[fleet]   provider-thread utilisation under backlog: %.1f %%%n",
        100 * FleetFigures.providerUtilisationUnderBacklog(solves.jdbc(), stats, PLAN_THREADS));
    System.out.printf(
        "[fleet]   freed slot -> next in.php: p50 %.3f s, p95 %.3f s (n=%d)%n",
        Percentiles.of(handoff, 0.5), Percentiles.of(handoff, 0.95), handoff.size());
    System.out.printf(
        "[fleet]   poll lateness: p50 %.3f s, p95 %.3f s (n=%d)%n",
        Percentiles.of(lateness, 0.5), Percentiles.of(lateness, 0.95), lateness.size());
    System.out.printf(
        "[fleet]   fetch lag (simulator): mean %.2f s, p95 %.2f s%n",
        stats.fetchLagMeanSeconds(), stats.fetchLagP95Seconds());
    System.out.printf(
        "[fleet]   in.php per solve %.2f, res.php per solve %.2f, JobRunr jobs per solve %.2f%n",
        (double) stats.acceptedSubmits() / solved,
        (double) stats.resCalls() / solved,
        (double) FleetFigures.jobrunrJobs(solves.jdbc()) / solved);
  }

  /**
   * A simulator whose Turnstile solves take {@code fastest} to {@code slowest}, and on a fresh
   * database an enqueue-only node and {@code workerCount} worker JVMs named {@code name-w0}, {@code
   * name-w1}, …, up; then {@code solveCount} Turnstile solves enqueued, named {@code name-0},
   * {@code name-1}, …. Closing stops the workers, the node and the simulator, in that order.
   */
  static final class Fleet implements AutoCloseable {

    final CaptchaAiSimulator sim;
    final List<WorkerProcess> workers = new ArrayList<>();
    final WorkerNode app;
    final SolveProbe solves;
    final List<UUID> ids = new ArrayList<>();

    Fleet(String name, int workerCount, int solveCount, Duration fastest, Duration slowest) {
      sim =
          CaptchaAiSimulator.builder()
              .account(KEY, PLAN_THREADS)
              .solveTime("turnstile", fastest, slowest)
              .build()
              .start();
      WorkerNode node = null;
      try {
        String db = EmbeddedPostgresSupport.newDatabase();
        node = enqueueNode(db, sim.baseUrl());
        for (int i = 0; i < workerCount; i++) {
          workers.add(WorkerProcess.start(name + "-w" + i, db, sim.baseUrl(), KEY, workerProps()));
        }
        workers.forEach(WorkerProcess::awaitUp);
        app = node;
        solves = app.probe();
        for (int i = 0; i < solveCount; i++) {
          ids.add(solves.turnstile(name + "-" + i));
        }
      } catch (RuntimeException | Error e) {
        workers.forEach(WorkerProcess::close);
        if (node != null) {
          node.close();
        }
        sim.close();
        throw e;
      }
    }

    /** Waits until every solve is final, within {@code atMost}: each one SOLVED. */
    void awaitEverySolveSolved(Duration atMost, Duration pollInterval) {
      await()
          .atMost(atMost)
          .pollInterval(pollInterval)
          .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));
      assertThat(ids).allMatch(id -> solves.get(id).status() == SolveStatus.SOLVED);
    }

    @Override
    public void close() {
      workers.forEach(WorkerProcess::close);
      app.close();
      sim.close();
    }
  }
}
