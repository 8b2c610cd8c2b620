package com.captchajobs.core.internal.upkeep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.LifecycleFixture;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The repair pass (the reconciler) cannot be defeated: every repair of a solve gets a job id of its
 * own, and no number of wedged rows hides another. Its own pass is driven by the test (a long
 * interval keeps the node's schedule out of the way), except where a solve a crash left without any
 * job is resumed by the node's scheduled pass.
 */
class ReconcilerTest {

  static final String KEY = "repairKeyREPAIRkeyREPAIRkey12345";
  static final Set<String> LIVE = Set.of("SCHEDULED", "ENQUEUED", "PROCESSING", "AWAITING");

  static CaptchaAiSimulator sim;
  static EngineNode node;
  static SolveProbe solves;
  static Reconciler reconciler;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    node =
        EngineNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchaai.first-poll-wait.RECAPTCHA_V3", "20s",
                "captchaai.stuck-after", "1s",
                "captchaai.reconcile-interval", "1h"));
    solves = node.probe();
    reconciler = node.part(Reconciler.class);
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  static UUID jobOf(UUID solveId) {
    return solves
        .jdbc()
        .queryForObject("SELECT job_id FROM captchajobs.solve WHERE id = ?", UUID.class, solveId);
  }

  static boolean liveJob(UUID solveId) {
    String state = stateOfItsJob(solveId);
    return state != null && LIVE.contains(state);
  }

  static String stateOfItsJob(UUID solveId) {
    List<String> states =
        solves
            .jdbc()
            .queryForList(
                "SELECT j.state FROM captchajobs.cj_jobrunr_jobs j JOIN captchajobs.solve s"
                    + " ON j.id = CAST(s.job_id AS char(36)) WHERE s.id = ?",
                String.class,
                solveId);
    return states.size() == 1 ? states.get(0) : null;
  }

  static boolean isSolved(UUID solveId) {
    return "SOLVED"
        .equals(
            solves
                .jdbc()
                .queryForObject(
                    "SELECT status FROM captchajobs.solve WHERE id = ?", String.class, solveId));
  }

  /** What wedged solves in the field: the job the row points at ended without moving it. */
  static void endItsJobWithoutMovingIt(UUID solveId) {
    solves
        .jdbc()
        .update(
            "UPDATE captchajobs.cj_jobrunr_jobs SET state = 'SUCCEEDED'"
                + " WHERE id = (SELECT CAST(job_id AS char(36)) FROM captchajobs.solve WHERE id = ?)",
            solveId);
  }

  static UUID slowRecaptcha(String businessKey) {
    return solves.enqueue(
        businessKey,
        CaptchaType.RECAPTCHA_V3,
        Map.of(
            "sitekey",
            "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
            "pageUrl",
            SolveProbe.pageUrl(businessKey)));
  }

  @Test
  void theRepairPassRunTwiceOnTheSameStuckSolveCreatesALiveJobBothTimes() {
    UUID id = slowRecaptcha("repair-twice");
    Solve submitted = solves.awaitStatus(id, SolveStatus.SUBMITTED);
    await().until(() -> liveJob(id));
    Set<UUID> jobs = new HashSet<>();
    boolean solvedByTheEndedJob = false;

    for (int round = 1; round <= 2 && !solvedByTheEndedJob; round++) {
      // Only a job that waits can be ended under JobRunr's feet: one being run would have its
      // state written back by the server that runs it.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> isSolved(id) || "SCHEDULED".equals(stateOfItsJob(id)));
      if (isSolved(id)) {
        solvedByTheEndedJob = round > 1;
        assertThat(round).as("solved before its first poll was due").isGreaterThan(1);
        break;
      }
      endItsJobWithoutMovingIt(id);
      assertThat(liveJob(id)).isFalse();
      UUID wedged = jobOf(id);
      await()
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                reconciler.reconcile();
                return (!jobOf(id).equals(wedged) && liveJob(id)) || isSolved(id);
              });
      // In the second round the poll job whose row was marked ended may already be running (it
      // is fetched up to the poll lead early) and store the token itself: then the solve is done
      // and needs no live job. Before its first poll is due (round one) that cannot happen.
      solvedByTheEndedJob = isSolved(id) && jobOf(id).equals(wedged);
      assertThat(solvedByTheEndedJob && round == 1)
          .as("solved by an ended job in round 1")
          .isFalse();
      if (!solvedByTheEndedJob) {
        jobs.add(jobOf(id));
      }
    }

    assertThat(jobs).hasSize(solvedByTheEndedJob ? 1 : 2);
    assertThat(
            solves
                .jdbc()
                .queryForObject(
                    "SELECT repairs FROM captchajobs.solve WHERE id = ?", Integer.class, id))
        // the first wedge is always repaired; in the second round the job that was marked ended
        // may still be running and move the solve itself (the submit job now makes an early first
        // poll), which equally leaves a live job
        .isBetween(1, 2);
    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(60));
    assertThat(solved.taskId()).isEqualTo(submitted.taskId());
    assertThat(sim.stats().submitsByPageUrl().get(SolveProbe.pageUrl("repair-twice")))
        .isEqualTo(1L);
  }

  @Test
  void onlyOneNodeRunsTheRepairPassAtATime() throws Exception {
    var started = new java.util.concurrent.CountDownLatch(1);
    var release = new java.util.concurrent.CountDownLatch(1);
    SolveRepository repository = node.part(SolveRepository.class);
    Thread holder =
        new Thread(
            () ->
                repository.exclusively(
                    () -> {
                      started.countDown();
                      try {
                        release.await();
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }));
    holder.start();
    started.await();
    try {
      assertThat(reconciler.reconcile()).isFalse();
    } finally {
      release.countDown();
      holder.join();
    }
    assertThat(reconciler.reconcile()).isTrue();
  }

  /**
   * Not a timing assertion: prints the cost of one pass over 100 000 solve rows of which 1 000 are
   * unfinished, as the fleet sees it in steady state (every unfinished solve with a live job), and
   * the cost of finding them all when every one of them is wedged.
   */
  @Test
  void theRepairPassOverAHundredThousandRowsIsMeasured() {
    try {
      measure();
    } finally {
      // Leave the fleet clean for the other tests of this class.
      solves
          .jdbc()
          .update(
              "DELETE FROM captchajobs.cj_jobrunr_jobs WHERE id IN (SELECT CAST(job_id AS char(36))"
                  + " FROM captchajobs.solve WHERE business_key LIKE 'bench-%' AND job_id IS NOT NULL)");
      solves.jdbc().update("DELETE FROM captchajobs.solve WHERE business_key LIKE 'bench-%'");
    }
  }

  private void measure() {
    var jdbc = solves.jdbc();
    jdbc.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
            + " task_id, submitted_at, solved_at, created_at, updated_at)"
            + " SELECT gen_random_uuid(), 'bench-' || g, 'TURNSTILE', '{}'::jsonb, repeat('0', 64),"
            + " (ARRAY['CLAIMED', 'EXPIRED', 'FAILED'])[1 + g % 3], g::text,"
            + " now() - interval '2 hours', now() - interval '2 hours',"
            + " now() - interval '2 hours', now() - interval '2 hours'"
            + " FROM generate_series(1, 99000) g");
    jdbc.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
            + " task_id, submitted_at, created_at, updated_at)"
            + " SELECT gen_random_uuid(), 'bench-open-' || g, 'TURNSTILE',"
            + " '{\"sitekey\":\"x\",\"pageUrl\":\"https://shop.example.test/bench\"}'::jsonb,"
            + " repeat('0', 64), 'SUBMITTED', 'bench' || g, now(), now() - interval '1 minute',"
            + " now() - interval '1 minute' FROM generate_series(1, 1000) g");
    jdbc.update("ANALYZE captchajobs.solve");
    SolveJobs jobs = node.part(SolveJobs.class);
    SolveRepository repository = node.part(SolveRepository.class);
    List<UUID> open =
        jdbc.queryForList(
            "SELECT id FROM captchajobs.solve WHERE business_key LIKE 'bench-open-%'", UUID.class);
    Instant farAway = Instant.now().plus(Duration.ofDays(3650));
    for (UUID id : open) {
      UUID jobId = SolveJobs.pollJobId(id, 1, 1);
      jdbc.update("UPDATE captchajobs.solve SET job_id = ? WHERE id = ?", jobId, id);
      jobs.poll(repository.find(id).orElseThrow(), 1, 1, farAway);
    }
    jdbc.update("ANALYZE captchajobs.cj_jobrunr_jobs");

    List<Long> passMicros = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      long t0 = System.nanoTime();
      assertThat(reconciler.reconcile()).isTrue();
      passMicros.add((System.nanoTime() - t0) / 1000);
    }
    assertThat(open).allMatch(ReconcilerTest::liveJob);

    jdbc.update(
        "UPDATE captchajobs.cj_jobrunr_jobs SET state = 'SUCCEEDED' WHERE id IN"
            + " (SELECT CAST(job_id AS char(36)) FROM captchajobs.solve"
            + "  WHERE business_key LIKE 'bench-open-%')");
    List<Long> findMicros = new ArrayList<>();
    int found = 0;
    for (int i = 0; i < 20; i++) {
      long t0 = System.nanoTime();
      found =
          repository
              .findStuck(
                  Duration.ofSeconds(1),
                  SolveSettings.DEFAULT_SOLVE_DEADLINE,
                  Instant.EPOCH,
                  new UUID(0, 0),
                  1000)
              .size();
      findMicros.add((System.nanoTime() - t0) / 1000);
    }
    assertThat(found).isEqualTo(1000);
    String plan =
        String.join(
            "\n",
            jdbc.queryForList(
                "EXPLAIN SELECT 1 FROM captchajobs.solve s WHERE s.status IN ('QUEUED', 'SUBMITTED')"
                    + " AND s.updated_at < now() AND NOT EXISTS (SELECT 1 FROM"
                    + " captchajobs.cj_jobrunr_jobs j WHERE j.id = CAST(s.job_id AS char(36))"
                    + " AND j.state IN ('SCHEDULED', 'ENQUEUED', 'PROCESSING', 'AWAITING'))",
                String.class));
    passMicros.sort(null);
    findMicros.sort(null);
    System.out.printf(
        "REPAIR PASS 100000 rows, 1000 unfinished with live jobs: median %.1f ms, max %.1f ms%n"
            + "FIND STUCK 1000 wedged of 100000: median %.1f ms, max %.1f ms%n%s%n",
        passMicros.get(10) / 1000.0,
        passMicros.get(19) / 1000.0,
        findMicros.get(10) / 1000.0,
        findMicros.get(19) / 1000.0,
        plan);
    // The job id is compared as JobRunr stores it (char(36)): j.id is never cast, so its primary
    // key serves the join whenever the planner prefers an index to a hash of the live jobs.
    assertThat(plan).contains("= j.id)").doesNotContain("(j.id)::text");
  }

  /** The account of the tests that run on a lifecycle node of their own. */
  static final String LIFECYCLE_KEY = "lifecycleKeyLIFECYCLEkey12345678";

  static long submitsFor(CaptchaAiSimulator sim, String businessKey) {
    return sim.stats().submitsByPageUrl().getOrDefault(SolveProbe.pageUrl(businessKey), 0L);
  }

  @Test
  void aSolveACrashLeftWithoutAnyJobIsResumedByTheRepairPass() {
    try (LifecycleFixture fixture = LifecycleFixture.start(LIFECYCLE_KEY)) {
      CaptchaAiSimulator sim = fixture.sim();
      EngineNode node = fixture.node();
      SolveProbe solves = node.probe();
      UUID id =
          solves.enqueue(
              "lifecycle-orphan",
              CaptchaType.RECAPTCHA_V3,
              Map.of(
                  "sitekey",
                  "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
                  "pageUrl",
                  SolveProbe.pageUrl("lifecycle-orphan")));
      Solve submitted = solves.awaitStatus(id, SolveStatus.SUBMITTED);
      // The crash: the poll job is gone and nobody reruns the submit job.
      node.part(StorageProvider.class).deletePermanently(SolveJobs.pollJobId(id, 1, 1));
      assertThat(solves.get(id).status())
          .as("removed before it polled")
          .isEqualTo(SolveStatus.SUBMITTED);

      Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED);

      assertThat(solved.taskId()).isEqualTo(submitted.taskId());
      assertThat(submitsFor(sim, "lifecycle-orphan")).isEqualTo(1);
    }
  }
}
