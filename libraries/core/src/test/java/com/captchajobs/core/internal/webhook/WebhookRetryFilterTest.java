package com.captchajobs.core.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jobrunr.jobs.states.DeletedState;
import org.jobrunr.jobs.states.EnqueuedState;
import org.jobrunr.jobs.states.FailedState;
import org.jobrunr.jobs.states.ScheduledState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class WebhookRetryFilterTest {

  @Test
  void theWaitDoublesFromTheWebhookBackoffUpToTheMaximum() {
    WebhookRetryFilter filter =
        new WebhookRetryFilter(8, Duration.ofSeconds(10), Duration.ofMinutes(10), null);

    assertThat(filter.waitBeforeRetry(1)).isEqualTo(10);
    assertThat(filter.waitBeforeRetry(2)).isEqualTo(20);
    assertThat(filter.waitBeforeRetry(3)).isEqualTo(40);
    assertThat(filter.waitBeforeRetry(6)).isEqualTo(320);
    assertThat(filter.waitBeforeRetry(7)).isEqualTo(600);
    assertThat(filter.waitBeforeRetry(60)).isEqualTo(600);
  }

  @Test
  void aMaximumShorterThanTheBackoffStillWaitsTheBackoff() {
    WebhookRetryFilter filter =
        new WebhookRetryFilter(2, Duration.ofSeconds(6), Duration.ofSeconds(1), null);

    assertThat(filter.waitBeforeRetry(1)).isEqualTo(6);
    assertThat(filter.waitBeforeRetry(3)).isEqualTo(6);
  }

  @Test
  void aRetryEnqueuedBeforeItsBackoffIsOverWaitsTheRestBeforeItRuns() {
    Instant now = Instant.parse("2026-12-06T10:00:00Z");
    ScheduledState retry = new ScheduledState(now.plusMillis(1_550), "Retry 1 of 2");

    assertThat(
            WebhookRetryFilter.waitLeft(
                List.of(new EnqueuedState(), failure(), retry, new EnqueuedState()), now))
        .isEqualTo(Duration.ofMillis(1_550));
    assertThat(WebhookRetryFilter.waitLeft(List.of(failure(), retry), now.plusSeconds(2)))
        .as("a retry started after it was due")
        .isZero();
    assertThat(WebhookRetryFilter.waitLeft(List.of(new EnqueuedState()), now))
        .as("a first attempt")
        .isZero();
    ScheduledState parked =
        new ScheduledState(
            now.plusSeconds(60), "Parked until a delivery thread of its client is free");
    assertThat(
            WebhookRetryFilter.waitLeft(
                List.of(
                    new EnqueuedState(), new DeletedState("parked"), parked, new EnqueuedState()),
                now))
        .as("a parked delivery requeued when a share came free")
        .isZero();
    assertThat(
            WebhookRetryFilter.waitLeft(
                List.of(failure(), retry, new EnqueuedState(), new DeletedState("parked"), parked),
                now))
        .as("a retry parked and requeued before its backoff was over")
        .isEqualTo(Duration.ofMillis(1_550));
  }

  private static FailedState failure() {
    return new FailedState("HTTP 500", new IllegalStateException("HTTP 500"));
  }
}
