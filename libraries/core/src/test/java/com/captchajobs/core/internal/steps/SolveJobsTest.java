package com.captchajobs.core.internal.steps;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.jobrunr.JobsReady;
import com.captchajobs.core.internal.notify.PushNotice;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import java.lang.reflect.Field;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.mappers.JobMapper;
import org.jobrunr.jobs.states.ScheduledState;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.scheduling.BackgroundJobRequest;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.storage.InMemoryStorageProvider;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The jobs of a solve as JobRunr stores them (JobRunr's own in-memory storage, nothing started).
 */
@Tag("unit")
class SolveJobsTest {

  private static final int RETRIES = 4;

  private InMemoryStorageProvider storage;
  private final AtomicInteger submitsReady = new AtomicInteger();
  private final List<PushNotice> notices = new CopyOnWriteArrayList<>();
  private SolveJobs jobs;

  @BeforeEach
  void createJobs() throws ReflectiveOperationException {
    storage = new InMemoryStorageProvider();
    storage.setJobMapper(new JobMapper(new JacksonJsonMapper()));
    JobRequestScheduler scheduler;
    synchronized (BackgroundJobRequest.class) { // JobRunr's constructor sets its static facade
      Field facade = BackgroundJobRequest.class.getDeclaredField("jobRequestScheduler");
      facade.setAccessible(true);
      Object before = facade.get(null);
      scheduler = new JobRequestScheduler(storage, List.of());
      BackgroundJobRequest.setJobRequestScheduler((JobRequestScheduler) before);
    }
    JobsReady ready =
        new JobsReady() {
          @Override
          public void submitReady() {
            submitsReady.incrementAndGet();
          }

          @Override
          public void pollReady() {}

          @Override
          public boolean threadToSpare() {
            return false;
          }

          @Override
          public void pushRang(PushNotice notice) {
            notices.add(notice);
          }
        };
    jobs = new SolveJobs(scheduler, Clock.systemUTC(), Duration.ofSeconds(6), RETRIES, ready);
  }

  @Test
  void aNewSolvesSubmitJobIsEnqueuedUnderTheIdDerivedFromTheSolveNamedAndLabelledByTypeAndKey() {
    UUID solveId = UUID.randomUUID();

    UUID jobId = jobs.submit(solveId, CaptchaType.TURNSTILE, "order-17");

    assertThat(jobId).isEqualTo(SolveJobs.enqueueJobId(solveId));
    Job job = storage.getJobById(jobId);
    assertThat(job.getState()).isEqualTo(StateName.ENQUEUED);
    assertThat(job.getJobName()).isEqualTo("Submit TURNSTILE order-17");
    assertThat(job.getLabels()).contains("TURNSTILE", "key:order-17");
    assertThat(job.getAmountOfRetries()).isEqualTo(RETRIES);
    assertThat(submitsReady).hasValue(1);
  }

  @Test
  void aSubmitRetriedLaterIsScheduledThatFarAheadAndWakesNoWorker() {
    UUID solveId = UUID.randomUUID();
    UUID jobId = SolveJobs.jobId(solveId, "retry:1");
    Instant before = Instant.now();

    jobs.submitLater(jobId, solveId, CaptchaType.IMAGE, "scan-3", Duration.ofMinutes(2));

    Job job = storage.getJobById(jobId);
    assertThat(job.getState()).isEqualTo(StateName.SCHEDULED);
    Instant at = ((ScheduledState) job.getJobState()).getScheduledAt();
    assertThat(at).isBetween(before.plus(Duration.ofMinutes(2)), Instant.now().plusSeconds(120));
    assertThat(submitsReady).hasValue(0);
  }

  @Test
  void aPushedFetchTellsTheWorkersAndItsJobIsTheFallbackDueAfterTheFetchsInstantWakingNoWorker() {
    UUID solveId = UUID.randomUUID();
    Solve solve =
        new Solve(
            solveId,
            "order-21",
            CaptchaType.TURNSTILE,
            Map.of(),
            0,
            null,
            SolveStatus.SUBMITTED,
            "73001",
            Instant.now(),
            null,
            null,
            null,
            null,
            null,
            1,
            0,
            0,
            0,
            Instant.now(),
            Instant.now(),
            null,
            null);
    Instant intended = Instant.now(); // a push for a task not called for 5 s: at once
    Instant lastCall = intended.minusSeconds(20);

    UUID jobId = jobs.pushedPoll(solve, 1, 3, lastCall.toEpochMilli(), intended);

    assertThat(notices)
        .containsExactly(
            new PushNotice(solveId, 1, 3, lastCall.toEpochMilli(), intended.toEpochMilli()));
    assertThat(jobId).isEqualTo(SolveJobs.jobId(solveId, "push:1:call:3"));
    Job job = storage.getJobById(jobId);
    assertThat(job.getJobName()).isEqualTo("Fetch pushed TURNSTILE order-21");
    assertThat(job.getState()).isEqualTo(StateName.SCHEDULED);
    assertThat(((ScheduledState) job.getJobState()).getScheduledAt())
        .isAfterOrEqualTo(intended.plus(SolveJobs.PUSHED_FALLBACK_AFTER));
    assertThat(submitsReady).as("dispatch wake-ups").hasValue(0);
  }

  @Test
  void theReportJobOfASolveHasOneIdNamedByItsActionAndWakesTheWorkers() {
    UUID solveId = UUID.randomUUID();

    UUID jobId = jobs.report(solveId, CaptchaType.RECAPTCHA_V2, "login-9", "reportbad");

    assertThat(jobId).isEqualTo(SolveJobs.reportJobId(solveId));
    assertThat(storage.getJobById(jobId).getJobName()).isEqualTo("reportbad RECAPTCHA_V2 login-9");
    assertThat(submitsReady).hasValue(1);
  }

  @Test
  void jobIdsAreTheSameForTheSameStepAndDifferForEveryOtherStepSubmissionAndPoll() {
    UUID solveId = UUID.randomUUID();

    assertThat(SolveJobs.pollJobId(solveId, 1, 2)).isEqualTo(SolveJobs.pollJobId(solveId, 1, 2));
    assertThat(
            List.of(
                SolveJobs.enqueueJobId(solveId),
                SolveJobs.reportJobId(solveId),
                SolveJobs.pollJobId(solveId, 1, 2),
                SolveJobs.pollJobId(solveId, 2, 1),
                SolveJobs.pollJobId(solveId, 1, 3),
                SolveJobs.pollJobId(UUID.randomUUID(), 1, 2)))
        .doesNotHaveDuplicates();
  }

  @Test
  void aBusinessKeyTooLongForAJobRunrLabelIsCutToFitAndNeverFailsTheJob() {
    String key = "k".repeat(300);

    UUID jobId = jobs.submit(UUID.randomUUID(), CaptchaType.TURNSTILE, key);

    assertThat(storage.getJobById(jobId).getLabels())
        .allSatisfy(label -> assertThat(label.length()).isLessThanOrEqualTo(45))
        .anySatisfy(label -> assertThat(label).startsWith("key:kkk"));
  }
}
