package com.captchajobs.core.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.CapturedOutput;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.LifecycleFixture;
import com.captchajobs.core.testing.OutputCapture;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A solve's whole life on real JobRunr, real PostgreSQL and the simulator over HTTP: queued,
 * submitted, solved, failed for good; what each job does on its own is in the job's test ({@code
 * SubmitJobTest}, {@code PollJobTest}, {@code PermanentErrorRetryFilterTest}, {@code
 * ReconcilerTest}).
 */
@Isolated
@ExtendWith(OutputCapture.class)
class SolveLifecycleTest {

  static final String KEY = "lifecycleKeyLIFECYCLEkey12345678";

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

  @Test
  void aSolveGoesFromQueuedThroughSubmittedToSolvedAndStoresItsTokenWithAnExpiry() {
    UUID id = solves.turnstile("lifecycle-1");
    Solve solved = solves.awaitStatus(id, SolveStatus.SOLVED);

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
    Solve failed = solves.awaitStatus(id, SolveStatus.FAILED, Duration.ofSeconds(90));

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
            Map.of("sitekey", "invalid", "pageUrl", SolveProbe.pageUrl("lifecycle-secrets-bad")));
    solves.awaitStatus(ok, SolveStatus.SOLVED);
    solves.awaitStatus(bad, SolveStatus.FAILED);

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
