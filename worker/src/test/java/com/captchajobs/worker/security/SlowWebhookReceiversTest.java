package com.captchajobs.worker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.webhook.WebhookDeliveries;
import com.captchajobs.core.internal.webhook.WebhookTrigger;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.jobs.states.JobState;
import org.jobrunr.jobs.states.ScheduledState;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.JobNotFoundException;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Receivers that hold a worker's threads: one that never answers, one that always answers 500. Two
 * solve threads and one delivery thread: a hanging receiver must hold only the delivery thread, and
 * a failing one is retried with the webhook backoff, not the solve backoff (5 s or more).
 */
class SlowWebhookReceiversTest {

  static final String KEY = "slowHookKeySLOWhookKey0123456789";
  static final String SECRET = "slow-webhook-secret-0123456789";

  static CaptchaAiSimulator sim;
  static WorkerNode node;
  static WebhookReceiver receiver;
  static final List<String> hangingRequests = new CopyOnWriteArrayList<>();
  static final List<Instant> failingRequests = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    sim = CaptchaAiSimulator.builder().account(KEY, 2).timeScale(0.05).build().start();
    receiver =
        new WebhookReceiver()
            .hanging("/hang", exchange -> hangingRequests.add(exchange.getRequestURI().toString()))
            .answering(
                "/fail",
                exchange -> {
                  failingRequests.add(Instant.now());
                  exchange.getRequestBody().readAllBytes();
                  exchange.sendResponseHeaders(500, -1);
                  exchange.close();
                })
            .start();
    node =
        WorkerNode.start(
            EmbeddedPostgresSupport.newDatabase(),
            sim.baseUrl(),
            KEY,
            Map.ofEntries(
                Map.entry("captchaai.threads", "2"),
                Map.entry("captchajobs.worker.worker-count", "2"),
                Map.entry("captchaai.first-poll-wait.TURNSTILE", "1s"),
                Map.entry("captchajobs.webhook.secret", SECRET),
                Map.entry("captchajobs.webhook.allowed-hosts", "http://127.0.0.1:" + port()),
                Map.entry("captchajobs.webhook.threads", "1"),
                // a hanging receiver would hold a thread for minutes
                Map.entry("captchajobs.webhook.timeout", "5m"),
                Map.entry("captchajobs.webhook.retries", "2"),
                Map.entry("captchajobs.webhook.backoff", "2s"),
                Map.entry("captchajobs.webhook.max-backoff", "2s")));
  }

  @AfterAll
  static void stop() {
    receiver.release();
    node.close();
    receiver.stop();
    sim.close();
  }

  @Test
  void aReceiverThatNeverAnswersHoldsOnlyTheDeliveryThreadWhileSolvesKeepCompleting() {
    try {
      List<UUID> first = List.of(enqueue("hang-a", hangUrl()), enqueue("hang-b", hangUrl()));
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                assertThat(first)
                    .allSatisfy(id -> assertThat(status(id)).isEqualTo(SolveStatus.SOLVED));
                assertThat(hangingRequests).as("the receiver holds a delivery").isNotEmpty();
              });

      // Two outcomes whose receiver never answers, as many as there are solve threads: solves go
      // on as if there were no webhook, because no delivery runs on a solve thread.
      List<UUID> next = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        next.add(enqueue("hang-" + i, hangUrl()));
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(next)
                      .allSatisfy(id -> assertThat(status(id)).isEqualTo(SolveStatus.SOLVED)));
      assertThat(
              node.bean(WebhookDeliveries.class).server().getJobSteward().getOccupiedWorkerCount())
          .as("the one delivery thread is held by the receiver")
          .isEqualTo(1);
    } finally {
      receiver.release();
    }
    // once the receiver answers, every outcome is delivered (at least once)
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(hangingRequests).hasSizeGreaterThanOrEqualTo(8));
  }

  @Test
  void aReceiverThatAnswers500IsRetriedWithTheWebhookBackoffThenLeftFailed() {
    UUID id = enqueue("fail-" + UUID.randomUUID(), "http://127.0.0.1:" + port() + "/fail");
    StorageProvider deliveries = node.bean(WebhookDeliveries.class).storage();
    UUID jobId = WebhookTrigger.jobId(id, SolveStatus.SOLVED);

    await()
        .atMost(Duration.ofSeconds(90))
        .ignoreExceptions()
        .until(() -> deliveries.getJobById(jobId).getState() == StateName.FAILED);

    // retries=2: three attempts, none after the job is left FAILED
    assertThat(failingRequests).hasSize(3);
    Job job = deliveries.getJobById(jobId);
    List<JobState> states = job.getJobStates();
    List<Duration> waits = new ArrayList<>();
    for (int i = 1; i < states.size(); i++) {
      if (states.get(i) instanceof ScheduledState scheduled
          && states.get(i - 1) instanceof FailedState failed) {
        waits.add(Duration.between(failed.getCreatedAt(), scheduled.getScheduledAt()));
      }
    }
    // backoff 2s ±25 % (the solve retries never wait less than 5 s)
    assertThat(waits)
        .hasSize(2)
        .allSatisfy(
            w -> assertThat(w).isBetween(Duration.ofMillis(1_500), Duration.ofMillis(2_600)));
    // JobRunr enqueues a retry up to one poll interval before it is due: it still reaches the
    // receiver no earlier than its backoff allows
    for (int i = 1; i < failingRequests.size(); i++) {
      assertThat(Duration.between(failingRequests.get(i - 1), failingRequests.get(i)))
          .as("the wait before attempt %d", i + 1)
          .isGreaterThanOrEqualTo(Duration.ofMillis(1_500));
    }
    // the delivery never was a job of the solves' JobRunr
    assertThatThrownBy(() -> node.bean(StorageProvider.class).getJobById(jobId))
        .isInstanceOf(JobNotFoundException.class);
  }

  private static String hangUrl() {
    return "http://127.0.0.1:" + port() + "/hang";
  }

  private static int port() {
    return receiver.port();
  }

  private static SolveStatus status(UUID id) {
    return node.bean(SolveRepository.class).find(id).orElseThrow().status();
  }

  private static UUID enqueue(String key, String callbackUrl) {
    return node.bean(SolveEnqueuer.class)
        .enqueue(
            SolveRepository.JAVA_API_CLIENT,
            key,
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "0x4AAAAAAADnPIDROrmt1Wwj", "pageUrl", SolveProbe.pageUrl(key)),
            0,
            callbackUrl,
            0)
        .orElseThrow()
        .id();
  }
}
