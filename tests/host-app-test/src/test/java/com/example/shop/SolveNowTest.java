package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.SolveFailedException;
import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** {@code solveNow} inside the shop's own JobRunr jobs, run by the in-process worker. */
class SolveNowTest {

  static final String KEY = "solvenowKeySOLVENOWkey0123456789";
  static final int THREADS = 2;

  static CaptchaAiSimulator sim;
  static ConfigurableApplicationContext shop;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, THREADS).timeScale(0.05).build().start();
    shop =
        new SpringApplicationBuilder(ShopApplication.class)
            .properties(
                Map.of(
                    "spring.datasource.url",
                    EmbeddedPostgresSupport.newDatabase(),
                    "server.port",
                    "0",
                    "captchajobs.worker.enabled",
                    "true",
                    "jobrunr.background-job-server.enabled",
                    "true",
                    "captchaai.api-key",
                    KEY,
                    "captchaai.base-url",
                    sim.baseUrl(),
                    "captchaai.threads",
                    String.valueOf(THREADS),
                    "captchaai.first-poll-wait.TURNSTILE",
                    "1s"))
            .run();
  }

  @AfterAll
  static void stop() {
    shop.close();
    sim.close();
  }

  @Test
  void solveNowInsideJobsReturnsTokensAndNeverExceedsTheFleetCap() {
    JobRequestScheduler scheduler = shop.getBean(JobRequestScheduler.class);
    IntStream.range(0, 6)
        .forEach(
            i ->
                scheduler.enqueue(
                    new CheckoutJob.Request("o" + i, "https://shop.example.test/solvenow-" + i)));

    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> CheckoutJob.USED.size() == 6);
    assertThat(CheckoutJob.USED.values()).allMatch(length -> length > 0);
    assertThat(sim.stats().maxInFlight()).isLessThanOrEqualTo(THREADS);
    assertThat(sim.stats().acceptedSubmits()).isEqualTo(6);
  }

  @Test
  void solveNowThrowsTheClassifiedErrorOfAFailedSolve() {
    Solves solves = shop.getBean(Solves.class);
    SolveRequest bad =
        SolveRequest.turnstile("solvenow-bad", "invalid", "https://shop.example.test/solvenow-bad");

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> solves.solveNow(bad, Duration.ofSeconds(60)))
        .isInstanceOfSatisfying(
            SolveFailedException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo("ERROR_BAD_TOKEN_OR_PAGEURL");
              assertThat(e.errorClass()).isEqualTo(ErrorClass.REQUEST);
            });
  }
}
