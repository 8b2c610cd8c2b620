package com.captchajobs.core.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.LifecycleFixture;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.Endpoint;
import com.captchajobs.simulator.Fault;
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

/**
 * Our JobRunr retry filter on real jobs: a permanent code ends the job FAILED after one attempt,
 * labelled with its code; a transient fault is retried after the wait CaptchaAI asks for.
 */
class PermanentErrorRetryFilterTest {

  static final String KEY = "retryFilterKeyRETRYfilterKey1234";

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

  static List<JobState> states(UUID jobId) {
    Job job = node.part(StorageProvider.class).getJobById(jobId);
    return job.getJobStates();
  }

  @Test
  void aPermanentCodeCostsOneInPhpCallAndEndsTheJobFailedWithoutRetry() {
    UUID id =
        solves.enqueue(
            "lifecycle-permanent",
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "invalid", "pageUrl", SolveProbe.pageUrl("lifecycle-permanent")));
    Solve failed = solves.awaitStatus(id, SolveStatus.FAILED);

    assertThat(failed.errorCode()).isEqualTo("ERROR_BAD_TOKEN_OR_PAGEURL");
    assertThat(failed.errorClass()).isEqualTo(ErrorClass.REQUEST);
    UUID jobId = SolveJobs.enqueueJobId(id);
    org.awaitility.Awaitility.await()
        .until(() -> states(jobId).get(states(jobId).size() - 1).getName() == StateName.FAILED);
    List<JobState> history = states(jobId);
    assertThat(history).filteredOn(s -> s instanceof FailedState).hasSize(1);
    assertThat(history).noneMatch(s -> s instanceof ScheduledState);
    assertThat(node.part(StorageProvider.class).getJobById(jobId).getLabels())
        .containsExactly(
            "TURNSTILE", "key:lifecycle-permanent", "error:ERROR_BAD_TOKEN_OR_PAGEURL");
    assertThat(sim.stats().rejectedSubmitsByCode()).containsKey("ERROR_BAD_TOKEN_OR_PAGEURL");
  }

  @Test
  void aTransientInPhpFaultIsRetriedAndTheSolveStillSucceeds() {
    sim.injectNext(Endpoint.IN, Fault.HTML_502);
    UUID id = solves.turnstile("lifecycle-transient-in");
    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED, Duration.ofSeconds(90));

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
}
