package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.CapturedOutput;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.LifecycleFixture;
import com.captchajobs.core.testing.OutputCapture;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
import com.captchajobs.simulator.TaskRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The submit job on real JobRunr, real PostgreSQL and the simulator over HTTP: in.php once per
 * submission whatever reruns, races or crashes, a stored task resumed rather than submitted again,
 * a reply whose task id could not be stored held like a lost one, and a provider out of threads met
 * with a wait rather than a failure.
 */
@Isolated
@ExtendWith(OutputCapture.class)
class SubmitJobTest {

  static final String KEY = "submitJobKeySUBMITjobKeySUBMIT12";

  /** The lost-reply test's own account, and how long its lost in.php holds a slot. */
  static final String LOST_ID_KEY = "lostIdKeyLOSTIDkeyLOSTIDkey12345";

  static final Duration HOLD = Duration.ofSeconds(8);

  /** Another client uses this key too: the provider has fewer threads than our cap. */
  static final String SATURATION_KEY = "saturationKeySATURATIONkey123456";

  static LifecycleFixture fixture;
  static CaptchaAiSimulator sim;
  static EngineNode node;
  static SolveProbe solves;

  @BeforeAll
  static void start() {
    fixture = LifecycleFixture.start(KEY);
    sim = fixture.sim();
    node = fixture.node();
    solves = fixture.solves();
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  static long submitsFor(String businessKey) {
    return fixture.submitsFor(businessKey);
  }

  static long submits(CaptchaAiSimulator sim, String businessKey) {
    return sim.stats().submitsByPageUrl().getOrDefault(SolveProbe.pageUrl(businessKey), 0L);
  }

  @Test
  void runningTheSubmitJobAgainAfterInPhpAnsweredNeverSubmitsTwice() {
    UUID id = solves.turnstile("lifecycle-rerun");
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    SubmitJob submitJob = node.part(SubmitJob.class);

    submitJob.submit(id, 0);
    submitJob.submit(id, 0);
    solves.awaitStatus(id, SolveStatus.SOLVED);
    submitJob.submit(id, 0);

    assertThat(submitsFor("lifecycle-rerun")).isEqualTo(1);
    assertThat(solves.get(id).submits()).isEqualTo(1);
  }

  @Test
  void concurrentRunsOfOneSolvesSubmitJobCallInPhpOnce() throws Exception {
    sim.injectNext(Endpoint.IN, Fault.SLOW); // a 2 s in.php call: a wide window for the race
    UUID id = solves.turnstile("lifecycle-concurrent");
    SubmitJob submitJob = node.part(SubmitJob.class);
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
    solves.awaitStatus(id, SolveStatus.SOLVED);

    // The node's own JobRunr server runs the solve's submit job too: with ours, five runs race,
    // and on a busy machine it may be the one that wins, leaving all four of ours busy. Whoever
    // won, exactly one in.php.
    assertThat(busy).isBetween(0, 4);
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
                SolveProbe.pageUrl("lifecycle-crash")));
    Solve submitted = solves.awaitStatus(id, SolveStatus.SUBMITTED);
    // The crash: the poll job is lost, the row keeps the task id committed before it.
    node.part(StorageProvider.class).deletePermanently(SolveJobs.pollJobId(id, 1, 1));
    assertThat(solves.get(id).status())
        .as("removed before it polled")
        .isEqualTo(SolveStatus.SUBMITTED);

    node.part(SubmitJob.class).submit(id, 0); // what a rerun of the orphaned submit job does
    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED);

    assertThat(solved.taskId()).isEqualTo(submitted.taskId());
    assertThat(submitsFor("lifecycle-crash")).isEqualTo(1);
  }

  /**
   * A stored task whose poll was lost long ago (an outage): submitted three minutes back, its poll
   * job gone. The row is moved back in time, as the outage would have left it.
   */
  private Solve lostForThreeMinutes(UUID id) {
    Solve submitted = solves.awaitStatus(id, SolveStatus.SUBMITTED);
    node.part(StorageProvider.class).deletePermanently(SolveJobs.pollJobId(id, 1, 1));
    assertThat(solves.get(id).status())
        .as("removed before it polled")
        .isEqualTo(SolveStatus.SUBMITTED);
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

    node.part(SubmitJob.class).submit(id, 0); // what the repair pass's submit job does
    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED);

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
                SolveProbe.pageUrl("lifecycle-late-token")));
    Solve submitted = lostForThreeMinutes(id); // a reCAPTCHA token lives 90 s here

    node.part(SubmitJob.class).submit(id, 0);
    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(40));

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
                SolveProbe.pageUrl("lifecycle-forgotten")));
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    node.part(StorageProvider.class).deletePermanently(SolveJobs.pollJobId(id, 1, 1));
    assertThat(solves.get(id).status())
        .as("removed before it polled")
        .isEqualTo(SolveStatus.SUBMITTED);
    // a task id the provider does not know (any more): res.php answers ERROR_WRONG_CAPTCHA_ID
    solves.jdbc().update("UPDATE captchajobs.solve SET task_id = '73999999999' WHERE id = ?", id);

    node.part(SubmitJob.class).submit(id, 0);
    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(40));

    assertThat(solved.taskId()).isNotEqualTo("73999999999");
    assertThat(submitsFor("lifecycle-forgotten")).isEqualTo(2);
  }

  @Test
  void aTaskIdThatCannotBeStoredIsHeldLikeALostReplyAndLogged(CapturedOutput output) {
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder().account(LOST_ID_KEY, 5).timeScale(0.05).build().start();
        EngineNode node =
            EngineNode.onFreshDatabase(
                sim,
                LOST_ID_KEY,
                Map.of(
                    "captchaai.first-poll-wait.TURNSTILE", "1s",
                    "captchaai.stuck-after", "1s",
                    "captchaai.lost-submit-hold", HOLD.toSeconds() + "s"))) {
      SolveProbe solves = node.probe();
      solves
          .jdbc()
          .execute(
              "CREATE FUNCTION captchajobs.refuse_task_id() RETURNS trigger AS $$ BEGIN"
                  + " IF NEW.business_key = 'lost-id' AND NEW.task_id IS NOT NULL THEN"
                  + " RAISE EXCEPTION 'injected: the task id cannot be stored'; END IF;"
                  + " RETURN NEW; END $$ LANGUAGE plpgsql");
      solves
          .jdbc()
          .execute(
              "CREATE TRIGGER refuse_task_id BEFORE UPDATE OF task_id ON captchajobs.solve"
                  + " FOR EACH ROW EXECUTE FUNCTION captchajobs.refuse_task_id()");
      UUID id = solves.turnstile("lost-id");

      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> output.getAll().contains("its id could not be stored"));
      long lostAt = System.nanoTime();
      assertThat(submits(sim, "lost-id")).isEqualTo(1);
      solves.jdbc().execute("DROP TRIGGER refuse_task_id ON captchajobs.solve");

      // The database accepts ids again at once, yet no second in.php call comes before the hold.
      await()
          .during(HOLD.minusSeconds(2))
          .atMost(HOLD)
          .until(() -> submits(sim, "lost-id") == 1 && solves.get(id).taskId() == null);
      Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(60));
      long secondAfterMillis = (System.nanoTime() - lostAt) / 1_000_000;

      assertThat(secondAfterMillis).isGreaterThanOrEqualTo(HOLD.minusSeconds(2).toMillis());
      assertThat(submits(sim, "lost-id")).isEqualTo(2);
      Matcher m =
          Pattern.compile("Solve lost-id \\(" + id + "\\) task (\\S+) was created by in.php")
              .matcher(output.getAll());
      assertThat(m.find()).isTrue();
      String lostTaskId = m.group(1);
      assertThat(lostTaskId).isNotBlank().isNotEqualTo(solved.taskId());
      assertThat(output.getAll()).doesNotContain(LOST_ID_KEY);
    }
  }

  @Test
  void zeroBalanceNeitherFailsTheSolveNorSpendsARetry() {
    // Another client uses the same key: the provider has 1 thread while our cap says 2.
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder()
                .account(SATURATION_KEY, 1)
                .solveTime("turnstile", Duration.ofSeconds(2), Duration.ofSeconds(2))
                .build()
                .start();
        EngineNode node =
            EngineNode.onFreshDatabase(
                sim,
                SATURATION_KEY,
                Map.of(
                    "captchaai.threads",
                    "2",
                    "captchaai.preflight",
                    "false",
                    "captchaai.first-poll-wait.TURNSTILE",
                    "2s",
                    "captchaai.thread-wait",
                    "1s"))) {
      SolveProbe solves = node.probe();
      UUID a = solves.turnstile("saturation-a");
      UUID b = solves.turnstile("saturation-b");
      Solve solvedA = solves.awaitStatus(a, SolveStatus.SOLVED);
      Solve solvedB = solves.awaitStatus(b, SolveStatus.SOLVED);

      assertThat(sim.stats().rejected("ERROR_ZERO_BALANCE")).isPositive();
      assertThat(solvedA.submits() + solvedB.submits()).isEqualTo(2);
      StorageProvider jobs = node.part(StorageProvider.class);
      for (UUID id : List.of(a, b)) {
        assertThat(jobs.getJobById(SolveJobs.enqueueJobId(id)).getJobStates())
            .noneMatch(s -> s instanceof FailedState);
      }
    }
  }
}
