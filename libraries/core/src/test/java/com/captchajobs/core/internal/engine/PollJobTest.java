package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.HoldingForwarder;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.RequestRecord;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.jobrunr.storage.JobNotFoundException;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The poll job. CaptchaAI allows one res.php call per task every 5 s. A poll made late (after an
 * outage, a crash or a busy spell) and a task resumed after a crash must still keep that distance
 * from the call before: the next poll is timed from the call, not from where the rhythm should have
 * been. A poll that meets a transient failure is retried on the same task.
 */
class PollJobTest {

  static final String KEY = "spacingKeySPACINGkeySPACINGkey12";

  /** The provider's rule, judged on the provider's side: the simulator's request log. */
  static final Duration FIVE_SECONDS = Duration.ofSeconds(5);

  static CaptchaAiSimulator sim;
  static HoldingForwarder forwarder;
  static EngineNode node;
  static SolveProbe solves;

  @BeforeAll
  static void start() {
    // Tasks that take a minute: every poll of these tests is answered "not ready".
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 5)
            .solveTime("turnstile", Duration.ofSeconds(60), Duration.ofSeconds(70))
            .build()
            .start();
    forwarder = new HoldingForwarder(sim.baseUrl());
    node =
        EngineNode.start(
            EmbeddedPostgresSupport.newDatabase(),
            forwarder.baseUrl(),
            KEY,
            Map.of(
                // far off, so that the test makes the first poll itself
                "captchaai.first-poll-wait.TURNSTILE", "60s",
                "captchaai.provider-check-interval", "1h"));
    solves = node.probe();
  }

  @AfterAll
  static void stop() {
    node.close();
    forwarder.close();
    sim.close();
  }

  @Test
  void aPollMadeTwentySecondsLateIsFollowedByTheNextFiveSecondsAfterItsCallNotAtOnce()
      throws Exception {
    UUID id = solves.turnstile("spacing-late");
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    StorageProvider storage = node.part(StorageProvider.class);
    storage.deletePermanently(SolveJobs.pollJobId(id, 1, 1));

    // What a poll job that starts 20 s after its intended instant does.
    long intended = Instant.now().minusSeconds(20).toEpochMilli();
    node.part(PollJob.class).poll(new PollJobRequest(id, 1, 1, intended), null);

    awaitCalledAt(id, 2);
    assertThat(gapBetweenTheFirstTwoGets(id)).isGreaterThanOrEqualTo(FIVE_SECONDS);
  }

  @Test
  void aTaskResumedRightAfterAPollIsPolledAgainFiveSecondsAfterThatCall() throws Exception {
    UUID id = solves.turnstile("spacing-resumed");
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    StorageProvider storage = node.part(StorageProvider.class);
    storage.deletePermanently(SolveJobs.pollJobId(id, 1, 1));
    node.part(PollJob.class).poll(new PollJobRequest(id, 1, 1, Instant.now().toEpochMilli()), null);
    // The crash: the next poll job is lost just after the call.
    UUID next = SolveJobs.pollJobId(id, 1, 2);
    await().atMost(Duration.ofSeconds(10)).until(() -> exists(storage, next));
    storage.deletePermanently(next);

    node.part(SubmitJob.class).submit(id, 0); // what a rerun of the orphaned submit job does

    awaitCalledAt(id, 2);
    assertThat(gapBetweenTheFirstTwoGets(id)).isGreaterThanOrEqualTo(FIVE_SECONDS);
    assertThat(sim.stats().submitsByPageUrl())
        .containsEntry(SolveProbe.pageUrl("spacing-resumed"), 1L);
  }

  @Test
  void aPollWhoseCallFailedCallsAgainItselfFiveSecondsAfterThatCall() throws Exception {
    UUID id = solves.turnstile("spacing-retried");
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    StorageProvider storage = node.part(StorageProvider.class);
    storage.deletePermanently(SolveJobs.pollJobId(id, 1, 1));
    PollJobRequest request = new PollJobRequest(id, 1, 1, Instant.now().toEpochMilli());
    sim.injectNext(Endpoint.RES, Fault.HTML_502);
    assertThat(node.part(PollJob.class).poll(request, null)).isNotInstanceOf(Step.Retry.class);

    // JobRunr may start a rerun of the job up to its poll interval early: here, at once.
    node.part(PollJob.class).poll(request, null);

    List<Long> at = getsOn(id);
    // the failed call, the one after it; then the rerun's and the next poll job's, in any order
    assertThat(at).hasSizeGreaterThanOrEqualTo(3);
    for (int i = 1; i < at.size(); i++) {
      assertThat(Duration.ofMillis(at.get(i) - at.get(i - 1))).isGreaterThanOrEqualTo(FIVE_SECONDS);
    }
  }

  @Test
  void aPollAndAFetchAPushRangForStartingTogetherNeverCallTheTaskLessThanFiveSecondsApart()
      throws Exception {
    UUID id = solves.turnstile("spacing-raced");
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    node.part(StorageProvider.class).deletePermanently(SolveJobs.pollJobId(id, 1, 1));
    long now = Instant.now().toEpochMilli();
    PollJob job = node.part(PollJob.class);
    CyclicBarrier together = new CyclicBarrier(2);

    // What two nodes do when the fallback poll and the fetch of a push start in the same instant.
    CompletableFuture<Step> poll =
        CompletableFuture.supplyAsync(
            () -> run(together, () -> job.poll(new PollJobRequest(id, 1, 1, now), null)));
    CompletableFuture<Step> pushed =
        CompletableFuture.supplyAsync(
            () -> run(together, () -> job.pollPushed(new PushedPollRequest(id, 1, 0, now))));
    CompletableFuture.allOf(poll, pushed).get(30, TimeUnit.SECONDS);

    List<Long> at = getsOn(id);
    assertThat(at).isNotEmpty();
    for (int i = 1; i < at.size(); i++) {
      assertThat(Duration.ofMillis(at.get(i) - at.get(i - 1))).isGreaterThanOrEqualTo(FIVE_SECONDS);
    }
  }

  @Test
  void aCallThatReachesTheProviderLateIsStillFollowedFiveSecondsAfterItArrivedNotAfterItLeft()
      throws Exception {
    UUID id = solves.turnstile("spacing-held");
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    StorageProvider storage = node.part(StorageProvider.class);
    storage.deletePermanently(SolveJobs.pollJobId(id, 1, 1));
    PollJob job = node.part(PollJob.class);

    // The poll's call reaches the provider 600 ms after it left (a busy machine, a slow proxy) ...
    forwarder.holdNextGet(Duration.ofMillis(600));
    long now = Instant.now().toEpochMilli();
    job.poll(new PollJobRequest(id, 1, 1, now), null);
    storage.deletePermanently(SolveJobs.pollJobId(id, 1, 2));
    long lastCall =
        node.probe()
            .jdbc()
            .queryForObject(
                "SELECT called_at FROM captchajobs.poll WHERE solve_id = ? AND submit_no = 1"
                    + " ORDER BY poll_no DESC LIMIT 1",
                Timestamp.class,
                id)
            .getTime();
    // ... and a push rings right after it: its fetch waits for 5 s after the call arrived.
    job.pollPushed(new PushedPollRequest(id, 1, lastCall, now));

    assertThat(getsOn(id)).hasSize(2);
    assertThat(gapBetweenTheFirstTwoGets(id)).isGreaterThanOrEqualTo(FIVE_SECONDS);
  }

  /** The res.php gets on the solve's task, as the simulator received them. */
  private static List<Long> getsOn(UUID id) {
    long taskId = Long.parseLong(solves.get(id).taskId());
    return sim.requests().stream()
        .filter(r -> r.resGet() && r.taskId() == taskId)
        .map(RequestRecord::at)
        .toList();
  }

  private interface PollCall {
    Step call() throws InterruptedException;
  }

  private static Step run(CyclicBarrier together, PollCall call) {
    try {
      together.await(10, TimeUnit.SECONDS);
      return call.call();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Between the first two res.php gets of the solve's task, as the simulator received them. */
  private static Duration gapBetweenTheFirstTwoGets(UUID id) {
    List<Long> at = getsOn(id);
    assertThat(at).hasSizeGreaterThanOrEqualTo(2);
    return Duration.ofMillis(at.get(1) - at.get(0));
  }

  private static boolean exists(StorageProvider storage, UUID jobId) {
    try {
      storage.getJobById(jobId);
      return true;
    } catch (JobNotFoundException e) {
      return false;
    }
  }

  private static Instant awaitCalledAt(UUID id, int pollNo) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                solves
                        .jdbc()
                        .queryForObject(
                            "SELECT count(*) FROM captchajobs.poll WHERE solve_id = ? AND poll_no = ?",
                            Long.class,
                            id,
                            pollNo)
                    == 1);
    return calledAt(id, pollNo);
  }

  private static Instant calledAt(UUID id, int pollNo) {
    return solves
        .jdbc()
        .queryForObject(
            "SELECT called_at FROM captchajobs.poll WHERE solve_id = ? AND submit_no = 1 AND poll_no = ?",
            Timestamp.class,
            id,
            pollNo)
        .toInstant();
  }

  /** The account of the tests that run on a lifecycle node of their own. */
  static final String LIFECYCLE_KEY = "lifecycleKeyLIFECYCLEkey12345678";

  static long submitsFor(CaptchaAiSimulator sim, String businessKey) {
    return sim.stats().submitsByPageUrl().getOrDefault(SolveProbe.pageUrl(businessKey), 0L);
  }

  @Test
  void aTransientPollFailureIsRetriedOnTheSameTaskId() {
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder().account(LIFECYCLE_KEY, 5).timeScale(0.05).build().start();
        EngineNode node =
            EngineNode.onFreshDatabase(
                sim,
                LIFECYCLE_KEY,
                Map.of(
                    "captchaai.first-poll-wait.TURNSTILE", "1s",
                    "captchaai.first-poll-wait.RECAPTCHA_V2", "1s",
                    // long, so that the first poll is a job of its own the crash tests can remove
                    "captchaai.first-poll-wait.RECAPTCHA_V3", "15s",
                    "captchaai.first-poll-wait.IMAGE", "15s",
                    // no periodic threadsinfo call to take a fault injected for a poll
                    "captchaai.provider-check-interval", "1h",
                    "captchaai.stuck-after", "3s",
                    "logging.level.com.captchajobs", "DEBUG"))) {
      SolveProbe solves = node.probe();
      UUID id = solves.turnstile("lifecycle-transient-res");
      Solve submitted = solves.awaitStatus(id, SolveStatus.SUBMITTED);
      sim.injectNext(Endpoint.RES, Fault.HTML_500);
      Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(90));

      assertThat(solved.taskId()).isEqualTo(submitted.taskId());
      assertThat(solved.submits()).isEqualTo(1);
      assertThat(submitsFor(sim, "lifecycle-transient-res")).isEqualTo(1);
      // the failed get and the one after it, both on the stored task (the simulator's log)
      assertThat(
              sim.requests().stream()
                  .filter(r -> r.resGet() && String.valueOf(r.taskId()).equals(solved.taskId()))
                  .map(r -> r.fault() == null ? r.outcome() : r.fault())
                  .toList())
          .containsExactly(Fault.HTML_500.name(), "OK");
    }
  }
}
