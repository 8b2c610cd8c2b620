package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.stats.Percentiles;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.SimulatorStats;
import com.captchajobs.simulator.TaskRecord;
import com.captchajobs.worker.testing.FleetFigures;
import com.captchajobs.worker.testing.Solves;
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

/**
 * Several worker JVMs against one database and one simulator: the cap holds for the whole fleet,
 * and a kill -9 neither loses a solve nor submits one twice, except where the victim died between
 * in.php's answer and storing the task id: that reply is lost with it, exactly like a reply lost on
 * the network, and the solve is submitted again once the submit lock of the dead run lapses.
 */
class FleetTest {

  static final String KEY = "fleetKeyFLEETkeyFLEETkey12345678";
  static final int PLAN_THREADS = 5;

  static Map<String, String> workerProps() {
    return Map.of(
        "captchaai.threads", String.valueOf(PLAN_THREADS),
        "captchaai.first-poll-wait.TURNSTILE", "1s",
        "captchaai.min-first-poll-wait", "1s",
        "captchaai.learn-after-solves", "1000");
  }

  /** A node in this JVM that only enqueues (no job server), like an app node. */
  static WorkerNode enqueueNode(String jdbcUrl, String baseUrl) {
    return WorkerNode.start(jdbcUrl, baseUrl, KEY, Map.of("captchajobs.worker.enabled", "false"));
  }

  @Test
  void threeWorkerJvmsNeverExceedThePlanAndSolveEverythingOnce() {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(KEY, PLAN_THREADS)
            .solveTime("turnstile", Duration.ofMillis(400), Duration.ofMillis(1200))
            .build()
            .start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      List<WorkerProcess> workers = new ArrayList<>();
      try (WorkerNode app = enqueueNode(db, sim.baseUrl())) {
        for (int i = 0; i < 3; i++) {
          workers.add(WorkerProcess.start("fleet-w" + i, db, sim.baseUrl(), KEY, workerProps()));
        }
        workers.forEach(WorkerProcess::awaitUp);
        Solves solves = new Solves(app);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
          ids.add(solves.turnstile("fleet-" + i));
        }
        await()
            .atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));

        SimulatorStats stats = sim.stats();
        assertThat(ids).allMatch(id -> solves.get(id).status() == SolveState.SOLVED);
        assertThat(stats.maxInFlight()).isLessThanOrEqualTo(PLAN_THREADS);
        assertThat(stats.rejected("ERROR_ZERO_BALANCE")).isZero();
        assertThat(stats.duplicateSubmits()).isZero();
        assertThat(stats.submitsByPageUrl().values()).hasSize(60).allMatch(n -> n == 1L);
        printFigures("three worker JVMs, plan 5, 60 Turnstile solves", solves, stats);
      } finally {
        workers.forEach(WorkerProcess::close);
      }
    }
  }

  @Test
  void killingAWorkerMidRunLosesNoSolveResubmitsOnlyRepliesItDiedBeforeStoringAndFreesItsSlots() {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(KEY, PLAN_THREADS)
            .solveTime("turnstile", Duration.ofMillis(1500), Duration.ofMillis(3000))
            .build()
            .start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      List<WorkerProcess> workers = new ArrayList<>();
      try (WorkerNode app = enqueueNode(db, sim.baseUrl())) {
        for (int i = 0; i < 2; i++) {
          workers.add(WorkerProcess.start("chaos-w" + i, db, sim.baseUrl(), KEY, workerProps()));
        }
        workers.forEach(WorkerProcess::awaitUp);
        Solves solves = new Solves(app);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          ids.add(solves.turnstile("chaos-" + i));
        }
        await()
            .atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofMillis(100))
            .until(
                () ->
                    ids.stream().filter(id -> solves.get(id).status() == SolveState.SOLVED).count()
                        >= 5);
        int heldByVictim =
            solves
                .jdbc()
                .queryForObject(
                    "SELECT count(*) FROM captchajobs.gate_slot WHERE node = 'chaos-w0'",
                    Integer.class);
        workers.get(0).kill();
        long killedAt = System.currentTimeMillis();

        await()
            .atMost(Duration.ofMinutes(4))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));
        SimulatorStats stats = sim.stats();
        assertThat(ids).allMatch(id -> solves.get(id).status() == SolveState.SOLVED);
        Map<String, List<TaskRecord>> tasksByKey =
            sim.tasks().stream().collect(Collectors.groupingBy(TaskRecord::pageUrl));
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
      } finally {
        workers.forEach(WorkerProcess::close);
      }
    }
  }

  @Test
  void aKilledWorkersRunningSolvesAndTheirSlotsAreBackWithinFiveSecondsWithoutANewInPhp() {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(KEY, PLAN_THREADS)
            .solveTime("turnstile", Duration.ofMillis(6000), Duration.ofMillis(9000))
            .build()
            .start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      List<WorkerProcess> workers = new ArrayList<>();
      try (WorkerNode app = enqueueNode(db, sim.baseUrl())) {
        for (int i = 0; i < 2; i++) {
          workers.add(WorkerProcess.start("dead-w" + i, db, sim.baseUrl(), KEY, workerProps()));
        }
        workers.forEach(WorkerProcess::awaitUp);
        Solves solves = new Solves(app);
        StorageProvider storage = app.bean(StorageProvider.class);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          ids.add(solves.turnstile("dead-" + i));
        }
        // Wait until the victim is running polls of submitted solves (jobs waiting in its threads).
        List<UUID> victims = new ArrayList<>();
        await()
            .atMost(Duration.ofMinutes(1))
            .pollInterval(Duration.ofMillis(100))
            .until(
                () -> {
                  victims.clear();
                  victims.addAll(submittedSolvesRunOn(storage, solves, "dead-w0"));
                  return !victims.isEmpty();
                });
        workers.get(0).kill();
        long killedAt = System.nanoTime();

        await()
            .atMost(Duration.ofSeconds(5))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> everyHeldSlotAndRunningSolveIsOffTheVictim(storage, solves, "dead-w0"));
        double seconds = (System.nanoTime() - killedAt) / 1e9;

        await()
            .atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));
        assertThat(ids).allMatch(id -> solves.get(id).status() == SolveState.SOLVED);
        for (UUID id : victims) {
          assertThat(sim.stats().submitsByPageUrl())
              .as("in.php calls of a solve the victim was polling")
              .containsEntry(Solves.pageUrl(solves.get(id).businessKey()), 1L);
        }
        assertThat(sim.stats().maxInFlight()).isLessThanOrEqualTo(PLAN_THREADS);
        System.out.printf(
            "[fleet] kill -9 with %d submitted solve(s) running on the victim: slots and solves"
                + " back on the survivor after %.1f s, none submitted again%n",
            victims.size(), seconds);
      } finally {
        workers.forEach(WorkerProcess::close);
      }
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
        Solves solves = new Solves(app);

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
        assertThat(solves.get(id).status()).isEqualTo(SolveState.SOLVED);
        assertThat(sim.stats().submitsByPageUrl())
            .containsEntry(Solves.pageUrl(solves.get(id).businessKey()), 1L);
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
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(KEY, PLAN_THREADS)
            .solveTime("turnstile", Duration.ofMillis(6000), Duration.ofMillis(9000))
            .build()
            .start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      List<WorkerProcess> workers = new ArrayList<>();
      try (WorkerNode app = enqueueNode(db, sim.baseUrl())) {
        for (int i = 0; i < 2; i++) {
          workers.add(WorkerProcess.start("slow-w" + i, db, sim.baseUrl(), KEY, workerProps()));
        }
        workers.forEach(WorkerProcess::awaitUp);
        Solves solves = new Solves(app);
        StorageProvider storage = app.bean(StorageProvider.class);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          ids.add(solves.turnstile("slow-" + i));
        }
        List<UUID> frozen = new ArrayList<>();
        await()
            .atMost(Duration.ofMinutes(1))
            .pollInterval(Duration.ofMillis(100))
            .until(
                () -> {
                  frozen.clear();
                  frozen.addAll(submittedSolvesRunOn(storage, solves, "slow-w0"));
                  return !frozen.isEmpty();
                });
        long pid = workers.get(0).process().pid();
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

        await()
            .atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));
        assertThat(ids).allMatch(id -> solves.get(id).status() == SolveState.SOLVED);
        assertThat(sim.stats().submitsByPageUrl().values()).hasSize(10).allMatch(n -> n == 1L);
        assertThat(sim.stats().maxInFlight()).isLessThanOrEqualTo(PLAN_THREADS);
      } finally {
        workers.forEach(WorkerProcess::close);
      }
    }
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).start();
    assertThat(kill.waitFor()).as("kill -" + signal).isZero();
  }

  /** Submitted solves whose recorded job is PROCESSING on the server named {@code node}. */
  static List<UUID> submittedSolvesRunOn(StorageProvider storage, Solves solves, String node) {
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
      StorageProvider storage, Solves solves, String node) {
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

  static void printFigures(String run, Solves solves, SimulatorStats stats) {
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
}
