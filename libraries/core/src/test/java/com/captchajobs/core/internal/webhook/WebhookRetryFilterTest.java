package com.captchajobs.core.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
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
}
