package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveState;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.TaskRecord;
import com.captchajobs.worker.testing.Solves;
import com.captchajobs.worker.testing.WorkerNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.jobs.states.JobState;
import org.jobrunr.jobs.states.ScheduledState;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The reschedule pattern on real JobRunr, real PostgreSQL and the simulator over HTTP. */
@ExtendWith(OutputCaptureExtension.class)
class SolveLifecycleTest {

  static final String KEY = "lifecycleKeyLIFECYCLEkey12345678";

  static CaptchaAiSimulator sim;
  static WorkerNode node;
  static Solves solves;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    node =
        WorkerNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchaai.first-poll-wait.TURNSTILE", "1s",
                "captchaai.first-poll-wait.RECAPTCHA_V2", "1s",
                // long, so that the first poll is a job of its own the crash tests can remove
                "captchaai.first-poll-wait.RECAPTCHA_V3", "15s",
                "captchaai.first-poll-wait.IMAGE", "15s",
                // no periodic threadsinfo call to take a fault injected for a poll
                "captchaai.provider-check-interval", "1h",
                "captchaai.stuck-after", "3s",
                "logging.level.com.captchajobs", "DEBUG"));
    solves = new Solves(node);
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  static long submitsFor(String businessKey) {
    return sim.stats().submitsByPageUrl().getOrDefault(Solves.pageUrl(businessKey), 0L);
  }

  static List<JobState> states(UUID jobId) {
    Job job = node.bean(StorageProvider.class).getJobById(jobId);
    return job.getJobStates();
  }

  @Test
  void aSolveGoesFromQueuedThroughSubmittedToSolvedAndStoresItsTokenWithAnExpiry() {
    UUID id = solves.turnstile("lifecycle-1");
    Solve solved = solves.awaitStatus(id, SolveState.SOLVED);

    assertThat(solved.taskId()).isNotBlank();
    assertThat(solved.submittedAt()).isNotNull();
    assertThat(solves.token(id)).isNotBlank();
    assertThat(solved.expiresAt()).isEqualTo(solved.solvedAt().plus(Duration.ofSeconds(270)));
    assertThat(solved.submits()).isEqualTo(1);
    assertThat(submitsFor("lifecycle-1")).isEqualTo(1);
    List<String> seen =
        solves
            .jdbc()
            .queryForList(
                "SELECT outcome FROM captchajobs.poll WHERE solve_id = ? ORDER BY poll_no",
                String.class,
                id);
    assertThat(seen).last().isEqualTo("SOLVED");
  }

  @Test
  void aPermanentCodeCostsOneInPhpCallAndEndsTheJobFailedWithoutRetry() {
    UUID id =
        solves.enqueue(
            "lifecycle-permanent",
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "invalid", "pageUrl", Solves.pageUrl("lifecycle-permanent")));
    Solve failed = solves.awaitStatus(id, SolveState.FAILED);

    assertThat(failed.errorCode()).isEqualTo("ERROR_BAD_TOKEN_OR_PAGEURL");
    assertThat(failed.errorClass()).isEqualTo(ErrorClass.REQUEST);
    UUID jobId = SolveJobs.enqueueJobId(id);
    org.awaitility.Awaitility.await()
        .until(() -> states(jobId).get(states(jobId).size() - 1).getName() == StateName.FAILED);
    List<JobState> history = states(jobId);
    assertThat(history).filteredOn(s -> s instanceof FailedState).hasSize(1);
    assertThat(history).noneMatch(s -> s instanceof ScheduledState);
    assertThat(node.bean(StorageProvider.class).getJobById(jobId).getLabels())
        .containsExactly(
            "TURNSTILE", "key:lifecycle-permanent", "error:ERROR_BAD_TOKEN_OR_PAGEURL");
    assertThat(sim.stats().rejectedSubmitsByCode()).containsKey("ERROR_BAD_TOKEN_OR_PAGEURL");
  }

  @Test
  void aTransientInPhpFaultIsRetriedAndTheSolveStillSucceeds() {
    sim.injectNext(Endpoint.IN, Fault.HTML_502);
    UUID id = solves.turnstile("lifecycle-transient-in");
    Solve solved = solves.awaitStatus(id, SolveState.SOLVED, Duration.ofSeconds(90));

    assertThat(solved.submits()).isEqualTo(1);
    List<JobState> history = states(SolveJobs.enqueueJobId(id));
    assertThat(history).filteredOn(s -> s instanceof FailedState).hasSize(1);
    // CaptchaAI asks for 5 s before a request that met a server error is repeated.
    FailedState failed =
        (FailedState) history.stream().filter(FailedState.class::isInstance).findFirst().get();
    assertThat(history)
        .filteredOn(ScheduledState.class::isInstance)
        .map(s -> Duration.between(failed.getCreatedAt(), ((ScheduledState) s).getScheduledAt()))
        .singleElement()
        .satisfies(
            wait -> assertThat(wait).isBetween(Duration.ofSeconds(5), Duration.ofMillis(6_300)));
  }

  @Test
  void aTransientPollFailureIsRetriedOnTheSameTaskId() {
    UUID id = solves.turnstile("lifecycle-transient-res");
    Solve submitted = solves.awaitStatus(id, SolveState.SUBMITTED);
    sim.injectNext(Endpoint.RES, Fault.HTML_500);
    Solve solved = solves.awaitStatus(id, SolveState.SOLVED, Duration.ofSeconds(90));

    assertThat(solved.taskId()).isEqualTo(submitted.taskId());
    assertThat(solved.submits()).isEqualTo(1);
    assertThat(submitsFor("lifecycle-transient-res")).isEqualTo(1);
    List<String> outcomes =
        solves
            .jdbc()
            .queryForList(
                "SELECT outcome FROM captchajobs.poll WHERE solve_id = ? ORDER BY poll_no",
                String.class,
                id);
    assertThat(outcomes).contains("HTTP_500");
  }

  @Test
  void runningTheSubmitJobAgainAfterInPhpAnsweredNeverSubmitsTwice() {
    UUID id = solves.turnstile("lifecycle-rerun");
    solves.awaitStatus(id, SolveState.SUBMITTED);
    SubmitJob submitJob = node.bean(SubmitJob.class);

    submitJob.submit(id, 0);
    submitJob.submit(id, 0);
    solves.awaitStatus(id, SolveState.SOLVED);
    submitJob.submit(id, 0);

    assertThat(submitsFor("lifecycle-rerun")).isEqualTo(1);
    assertThat(solves.get(id).submits()).isEqualTo(1);
  }

  @Test
  void concurrentRunsOfOneSolvesSubmitJobCallInPhpOnce() throws Exception {
    sim.injectNext(Endpoint.IN, Fault.SLOW); // a 2 s in.php call: a wide window for the race
    UUID id = solves.turnstile("lifecycle-concurrent");
    SubmitJob submitJob = node.bean(SubmitJob.class);
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    List<java.util.concurrent.Future<?>> runs = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      runs.add(pool.submit(() -> submitJob.submit(id, 0)));
    }
    int busy = 0;
    for (java.util.concurrent.Future<?> run : runs) {
      try {
        run.get();
      } catch (java.util.concurrent.ExecutionException e) {
        // what JobRunr would retry: another run held the solve's submit lock
        assertThat(e.getCause()).isInstanceOf(SubmitJob.SubmitBusyException.class);
        busy++;
      }
    }
    pool.shutdown();
    solves.awaitStatus(id, SolveState.SOLVED);

    assertThat(busy).isLessThan(4);
    assertThat(submitsFor("lifecycle-concurrent")).isEqualTo(1);
    assertThat(solves.get(id).submits()).isEqualTo(1);
  }

  @Test
  void aCrashBetweenInPhpAndTheFirstPollResumesTheStoredTaskInsteadOfSubmittingAgain() {
    // Long first wait, so that the first poll job is still waiting when we "crash".
    UUID id =
        solves.enqueue(
            "lifecycle-crash",
            CaptchaType.RECAPTCHA_V3,
            Map.of(
                "sitekey",
                "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
                "pageUrl",
                Solves.pageUrl("lifecycle-crash")));
    Solve submitted = solves.awaitStatus(id, SolveState.SUBMITTED);
    // The crash: the poll job is lost, the row keeps the task id committed before it.
    node.bean(StorageProvider.class).deletePermanently(SolveJobs.pollJobId(id, 1, 1));

    node.bean(SubmitJob.class).submit(id, 0); // what a rerun of the orphaned submit job does
    Solve solved = solves.awaitStatus(id, SolveState.SOLVED);

    assertThat(solved.taskId()).isEqualTo(submitted.taskId());
    assertThat(submitsFor("lifecycle-crash")).isEqualTo(1);
  }

  @Test
  void aSolveACrashLeftWithoutAnyJobIsResumedByTheRepairPass() {
    UUID id =
        solves.enqueue(
            "lifecycle-orphan",
            CaptchaType.RECAPTCHA_V3,
            Map.of(
                "sitekey",
                "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
                "pageUrl",
                Solves.pageUrl("lifecycle-orphan")));
    Solve submitted = solves.awaitStatus(id, SolveState.SUBMITTED);
    // The crash: the poll job is gone and nobody reruns the submit job.
    node.bean(StorageProvider.class).deletePermanently(SolveJobs.pollJobId(id, 1, 1));

    Solve solved = solves.awaitStatus(id, SolveState.SOLVED);

    assertThat(solved.taskId()).isEqualTo(submitted.taskId());
    assertThat(submitsFor("lifecycle-orphan")).isEqualTo(1);
  }

  /**
   * A stored task whose poll was lost long ago (an outage): submitted three minutes back, its poll
   * job gone. The row is moved back in time, as the outage would have left it.
   */
  private Solve lostForThreeMinutes(UUID id) {
    Solve submitted = solves.awaitStatus(id, SolveState.SUBMITTED);
    node.bean(StorageProvider.class).deletePermanently(SolveJobs.pollJobId(id, 1, 1));
    await() // the answer waits at the provider, as it would after minutes
        .until(
            () ->
                sim.tasks().stream()
                    .anyMatch(
                        t ->
                            String.valueOf(t.id()).equals(submitted.taskId())
                                && t.readyAt() != TaskRecord.NOT_STARTED
                                && t.readyAt() <= System.currentTimeMillis()));
    solves
        .jdbc()
        .update(
            "UPDATE captchajobs.solve SET submitted_at = submitted_at - interval '180 seconds'"
                + " WHERE id = ?",
            id);
    return submitted;
  }

  @Test
  void aTaskLeftUnpolledForMinutesIsAskedAgainAndItsWaitingAnswerUsedWithoutASecondSubmit() {
    byte[] picture = new byte[600];
    new java.util.Random(7).nextBytes(picture);
    UUID id =
        solves.enqueue(
            "lifecycle-late-image",
            CaptchaType.IMAGE,
            Map.of("body", java.util.Base64.getEncoder().encodeToString(picture)));
    Solve submitted = lostForThreeMinutes(id);

    node.bean(SubmitJob.class).submit(id, 0); // what the repair pass's submit job does
    Solve solved = solves.awaitStatus(id, SolveState.SOLVED);

    assertThat(solved.taskId()).isEqualTo(submitted.taskId());
    assertThat(sim.tasks()).filteredOn(t -> t.method().equals("base64")).hasSize(1);
  }

  @Test
  void aTokenFoundTooLateToBeSureOfItIsNotHandedOutTheSolveIsSubmittedAfresh(
      CapturedOutput output) {
    UUID id =
        solves.enqueue(
            "lifecycle-late-token",
            CaptchaType.RECAPTCHA_V3,
            Map.of(
                "sitekey",
                "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
                "pageUrl",
                Solves.pageUrl("lifecycle-late-token")));
    Solve submitted = lostForThreeMinutes(id); // a reCAPTCHA token lives 90 s here

    node.bean(SubmitJob.class).submit(id, 0);
    Solve solved = solves.awaitStatus(id, SolveState.SOLVED, Duration.ofSeconds(40));

    assertThat(solved.taskId()).isNotEqualTo(submitted.taskId());
    assertThat(submitsFor("lifecycle-late-token")).isEqualTo(2);
    assertThat(output.getAll())
        .contains(
            "task " + submitted.taskId() + " given up (its answer came too late to be sure it is");
  }

  @Test
  void aTaskTheProviderNoLongerKnowsIsGivenUpAndSubmittedAfreshInsteadOfFailing() {
    UUID id =
        solves.enqueue(
            "lifecycle-forgotten",
            CaptchaType.RECAPTCHA_V3,
            Map.of(
                "sitekey",
                "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
                "pageUrl",
                Solves.pageUrl("lifecycle-forgotten")));
    solves.awaitStatus(id, SolveState.SUBMITTED);
    node.bean(StorageProvider.class).deletePermanently(SolveJobs.pollJobId(id, 1, 1));
    // a task id the provider does not know (any more): res.php answers ERROR_WRONG_CAPTCHA_ID
    solves.jdbc().update("UPDATE captchajobs.solve SET task_id = '73999999999' WHERE id = ?", id);

    node.bean(SubmitJob.class).submit(id, 0);
    Solve solved = solves.awaitStatus(id, SolveState.SOLVED, Duration.ofSeconds(40));

    assertThat(solved.taskId()).isNotEqualTo("73999999999");
    assertThat(submitsFor("lifecycle-forgotten")).isEqualTo(2);
  }

  @Test
  void anUnsolvableTaskIsSubmittedOnceMoreThenFails() {
    UUID id =
        solves.enqueue(
            "lifecycle-unsolvable",
            CaptchaType.TURNSTILE,
            Map.of(
                "sitekey",
                "0x4AAAAAAADnPIDROrmt1Wwj",
                "pageUrl",
                "https://shop.example.test/unsolvable/lifecycle"));
    Solve failed = solves.awaitStatus(id, SolveState.FAILED, Duration.ofSeconds(90));

    assertThat(failed.errorCode()).isEqualTo("ERROR_CAPTCHA_UNSOLVABLE");
    assertThat(failed.errorClass()).isEqualTo(ErrorClass.UNSOLVABLE);
    assertThat(failed.submits()).isEqualTo(2);
    assertThat(sim.stats().submitsByPageUrl().get("https://shop.example.test/unsolvable/lifecycle"))
        .isEqualTo(2L);
  }

  @Test
  void theApiKeyAppearsNowhereInJobsTablesOrLogs(CapturedOutput output) {
    UUID ok = solves.turnstile("lifecycle-secrets-ok");
    UUID bad =
        solves.enqueue(
            "lifecycle-secrets-bad",
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "invalid", "pageUrl", Solves.pageUrl("lifecycle-secrets-bad")));
    solves.awaitStatus(ok, SolveState.SOLVED);
    solves.awaitStatus(bad, SolveState.FAILED);

    List<String> stored = solves.everyStoredText();
    assertThat(stored).isNotEmpty().noneMatch(text -> text.contains(KEY));
    assertThat(output.getAll()).contains("lifecycle-secrets-ok").doesNotContain(KEY);
    String token = solves.token(ok);
    assertThat(
            solves
                .jdbc()
                .queryForList("SELECT jobAsJson FROM captchajobs.cj_jobrunr_jobs", String.class))
        .isNotEmpty()
        .noneMatch(json -> json.contains(token));
  }
}
