package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.engine.EngineSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A solve enqueued while a slot is free reaches in.php without waiting for JobRunr's poll: the
 * poll interval here is 30 s, the bound on the hand-over 1 s.
 */
class DispatchWithoutPollTest {

  static final String KEY = "dispatch0dispatch0dispatch0dispa";
  static final Duration JOBRUNR_POLL = Duration.ofSeconds(30);

  CaptchaAiSimulator simulator;
  PGSimpleDataSource dataSource;

  @BeforeEach
  void start() {
    simulator = CaptchaAiSimulator.builder().account(KEY, 3).timeScale(0.1).build().start();
    dataSource = new PGSimpleDataSource();
    dataSource.setUrl(EmbeddedPostgresSupport.newDatabase());
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  @Test
  void aSolveEnqueuedWhileASlotIsFreeIsSubmittedWithinOneSecondThoughJobRunrPollsEveryThirtySeconds() {
    try (CaptchaJobs worker =
            CaptchaJobs.builder()
                .dataSource(dataSource)
                .apiKey(KEY)
                .baseUrl(simulator.baseUrl())
                .threads(3)
                .jobPollInterval(JOBRUNR_POLL)
                .settings(
                    EngineSettings.defaults()
                        .withFirstPollWait(CaptchaType.TURNSTILE, Duration.ofSeconds(1)))
                .nodeName("dispatch-worker")
                .build();
        CaptchaJobs app =
            CaptchaJobs.builder().dataSource(dataSource).nodeName("dispatch-app").build()) {
      // The first solve may ride on JobRunr's first fetch after start; wait until it is done, so
      // that the next fetch by poll is 30 s away.
      UUID first = worker.solves().enqueue(turnstile("dispatch-0"));
      assertThat(worker.solves().await(first, Duration.ofSeconds(20)).join().status())
          .isEqualTo(SolveStatus.SOLVED);

      // Enqueued on a node without a worker: the wake-up crosses nodes through PostgreSQL.
      app.solves().enqueue(turnstile("dispatch-1"));
      await()
          .atMost(Duration.ofSeconds(1))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> simulator.stats(KEY).acceptedSubmits() == 2);

      // Enqueued on the worker node itself.
      worker.solves().enqueue(turnstile("dispatch-2"));
      await()
          .atMost(Duration.ofSeconds(1))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> simulator.stats(KEY).acceptedSubmits() == 3);
    }
  }

  private static SolveRequest turnstile(String businessKey) {
    return SolveRequest.turnstile(
        businessKey, "0x4AAAAAAADnPIDROrmt1Wwj", "https://shop.example.test/" + businessKey);
  }
}
