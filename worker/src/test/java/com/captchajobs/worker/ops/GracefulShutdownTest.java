package com.captchajobs.worker.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.engine.PollJobRequest;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.SimulatorStats;
import com.captchajobs.worker.testing.WorkerNode;
import com.captchajobs.worker.testing.WorkerProcess;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.jobs.states.JobState;
import org.jobrunr.jobs.states.ProcessingState;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.jobs.states.SucceededState;
import org.jobrunr.storage.Paging;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM on one of two worker JVMs in the middle of a run: it stops taking jobs, lets running jobs
 * finish for {@code captchajobs.worker.shutdown-wait}, exits, and a poll job it had to cut short
 * runs again on the other worker without a second in.php call.
 */
class GracefulShutdownTest {

  static final String KEY = "graceKeyGRACEkeyGRACEkey12345678";
  static final int PLAN_THREADS = 10;
  static final Duration AWAIT_ON_STOP = Duration.ofSeconds(3);
  static final Duration SHUTDOWN_PHASE = Duration.ofSeconds(5);

  static Map<String, String> workerProps() {
    return Map.of(
        "captchaai.threads", String.valueOf(PLAN_THREADS),
        // long in-process waits before each res.php call, so a SIGTERM always finds poll jobs
        // running; the first poll is due after the poll lead plus one poll interval (18 s), so it
        // is a poll job of its own rather than made by the submit job
        "captchaai.first-poll-wait.TURNSTILE", "19s",
        "captchaai.poll-interval", "8s",
        "captchaai.poll-lead", "10s",
        "captchaai.learn-after-solves", "1000",
        "captchajobs.worker.shutdown-wait", AWAIT_ON_STOP.toSeconds() + "s",
        "spring.lifecycle.timeout-per-shutdown-phase", SHUTDOWN_PHASE.toSeconds() + "s");
  }

  @Test
  void
      aStoppedWorkerFinishesWhatItCanExitsInTimeAndACutShortJobResumesElsewhereWithoutASecondSubmit()
          throws Exception {
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder()
            .account(KEY, PLAN_THREADS)
            .solveTime("turnstile", Duration.ofSeconds(3), Duration.ofSeconds(6))
            .build()
            .start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      List<WorkerProcess> workers = new ArrayList<>();
      try (WorkerNode app =
          WorkerNode.start(db, sim.baseUrl(), KEY, Map.of("captchajobs.worker.enabled", "false"))) {
        workers.add(WorkerProcess.start("grace-a", db, sim.baseUrl(), KEY, workerProps()));
        workers.add(WorkerProcess.start("grace-b", db, sim.baseUrl(), KEY, workerProps()));
        workers.forEach(WorkerProcess::awaitUp);
        SolveProbe solves = app.probe();
        StorageProvider storage = app.bean(StorageProvider.class);
        List<UUID> servers = List.of(serverId(solves, "grace-a"), serverId(solves, "grace-b"));
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
          ids.add(solves.turnstile("grace-" + i));
        }

        // the victim: whichever worker runs a poll job that must wait longer than the stop grants
        Job[] cut = new Job[1];
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(100))
            .until(
                () -> {
                  cut[0] = runningPollJob(storage, AWAIT_ON_STOP.plusSeconds(1)).orElse(null);
                  return cut[0] != null;
                });
        UUID victimServer = cut[0].<ProcessingState>getJobState().getServerId();
        int victimIndex = servers.indexOf(victimServer);
        UUID survivorServer = servers.get(1 - victimIndex);
        Process victim = workers.get(victimIndex).process();
        Instant sigterm = Instant.now();
        victim.destroy();
        boolean exited = victim.waitFor(60, TimeUnit.SECONDS);
        Duration toExit = Duration.between(sigterm, Instant.now());

        await()
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> ids.stream().allMatch(id -> solves.get(id).status().isFinal()));
        SimulatorStats stats = sim.stats();
        String victimLog = Files.readString(workers.get(victimIndex).log().toPath());
        List<JobState> cutHistory = storage.getJobById(cut[0].getId()).getJobStates();
        Instant lastStartOnVictim = lastProcessingStart(storage, victimServer);
        long finishedOnVictimAfterSigterm = succeededOnAfter(storage, victimServer, sigterm);

        System.out.printf(
            "[shutdown] SIGTERM -> exit %d ms (await-on-stop %s, shutdown phase %s), exit code %d%n",
            toExit.toMillis(), AWAIT_ON_STOP, SHUTDOWN_PHASE, exited ? victim.exitValue() : -1);
        System.out.printf(
            "[shutdown] last job start on the victim: %d ms after SIGTERM; jobs it finished after SIGTERM: %d%n",
            Duration.between(sigterm, lastStartOnVictim).toMillis(), finishedOnVictimAfterSigterm);
        System.out.printf(
            "[shutdown] cut-short job %s: %s%n",
            cut[0].getJobName(),
            cutHistory.stream()
                .map(
                    s ->
                        s.getName()
                            + (s instanceof ProcessingState p
                                ? "@"
                                    + (p.getServerId().equals(victimServer) ? "victim" : "survivor")
                                : ""))
                .toList());

        assertThat(exited).as("exited").isTrue();
        assertThat(toExit).isLessThan(AWAIT_ON_STOP.plus(SHUTDOWN_PHASE).plusSeconds(5));
        assertThat(victimLog)
            .contains("BackgroundJobPerformers stopping (waiting at most PT3S for jobs to finish)");
        assertThat(lastStartOnVictim)
            .as("no job taken once stopping")
            .isBefore(sigterm.plusSeconds(2));
        assertThat(cutHistory)
            .anyMatch(
                s ->
                    s instanceof FailedState f
                        && f.getMessage().contains("background job server has stopped"));
        assertThat(cutHistory.get(cutHistory.size() - 1)).isInstanceOf(SucceededState.class);
        assertThat(cutHistory)
            .anyMatch(
                s -> s instanceof ProcessingState p && p.getServerId().equals(survivorServer));
        assertThat(ids).allMatch(id -> solves.get(id).status() == SolveStatus.SOLVED);
        assertThat(stats.submitsByPageUrl().values()).hasSize(16).allMatch(n -> n == 1L);
        assertThat(stats.maxInFlight()).isLessThanOrEqualTo(PLAN_THREADS);
      } finally {
        workers.forEach(WorkerProcess::close);
      }
    }
  }

  static UUID serverId(SolveProbe solves, String name) {
    return UUID.fromString(
        solves
            .jdbc()
            .queryForObject(
                "SELECT id FROM captchajobs.cj_jobrunr_backgroundjobservers WHERE name = ?",
                String.class,
                name));
  }

  /** A processing poll job whose intended res.php call is further away than {@code atLeast}. */
  static Optional<Job> runningPollJob(StorageProvider storage, Duration atLeast) {
    long threshold = Instant.now().plus(atLeast).toEpochMilli();
    return storage
        .getJobList(StateName.PROCESSING, Paging.AmountBasedList.ascOnUpdatedAt(1000))
        .stream()
        .filter(
            j ->
                j.getJobDetails().getJobParameters().get(0).getObject() instanceof PollJobRequest r
                    && r.intendedAtEpochMilli() > threshold)
        .findFirst();
  }

  static List<Job> everyJob(StorageProvider storage) {
    List<Job> jobs = new ArrayList<>();
    for (StateName state : StateName.values()) {
      jobs.addAll(storage.getJobList(state, Paging.AmountBasedList.ascOnUpdatedAt(10_000)));
    }
    return jobs;
  }

  static Instant lastProcessingStart(StorageProvider storage, UUID server) {
    return everyJob(storage).stream()
        .flatMap(j -> j.getJobStates().stream())
        .filter(s -> s instanceof ProcessingState p && p.getServerId().equals(server))
        .map(JobState::getCreatedAt)
        .max(Instant::compareTo)
        .orElse(Instant.EPOCH);
  }

  static long succeededOnAfter(StorageProvider storage, UUID server, Instant after) {
    return everyJob(storage).stream()
        .filter(
            j -> {
              List<JobState> h = j.getJobStates();
              for (int i = 1; i < h.size(); i++) {
                if (h.get(i) instanceof SucceededState s
                    && s.getCreatedAt().isAfter(after)
                    && h.get(i - 1) instanceof ProcessingState p
                    && p.getServerId().equals(server)) {
                  return true;
                }
              }
              return false;
            })
        .count();
  }
}
