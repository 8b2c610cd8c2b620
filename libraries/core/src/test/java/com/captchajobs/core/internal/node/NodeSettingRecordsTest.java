package com.captchajobs.core.internal.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.webhook.WebhookDeliveries;
import com.captchajobs.core.settings.InvalidSettingException;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The rules of the node settings the builder fills straight into their records. */
@Tag("unit")
class NodeSettingRecordsTest {

  private static WebhookDeliveries.Settings.Builder defaults() {
    return new WebhookDeliveries.Settings.Builder()
        .attemptTimeout(Duration.ofSeconds(10))
        .retries(8)
        .threads(4)
        .backoff(Duration.ofSeconds(10))
        .maxBackoff(Duration.ofMinutes(10));
  }

  @Test
  void aDeliveryWithoutThreadsPerClientGetsTheDefaultShareOfItsThreads() {
    WebhookDeliveries.Settings settings = defaults().threads(9).build();

    assertThat(settings.threadsPerClient())
        .isEqualTo(WebhookDeliveries.Settings.defaultThreadsPerClient(9))
        .isEqualTo(4);
  }

  @Test
  void aTimeoutOfZeroIsRefusedNamingTheBuilderMethod() {
    assertThatThrownBy(() -> defaults().attemptTimeout(Duration.ZERO).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("webhookTimeout(Duration) must be positive");
  }

  @Test
  void aMaxBackoffShorterThanTheBackoffIsRefusedNamingBothMethodsWhateverTheOrderTheyWereSetIn() {
    assertThat(
            defaults()
                .backoff(Duration.ofMinutes(30))
                .maxBackoff(Duration.ofHours(1))
                .build()
                .backoff())
        .as("a backoff above the default max-backoff, set first, is judged with the one set next")
        .isEqualTo(Duration.ofMinutes(30));
    assertThatThrownBy(() -> defaults().maxBackoff(Duration.ofSeconds(5)).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "webhookMaxBackoff(Duration) must not be shorter than webhookBackoff(Duration)");
  }

  @Test
  void aRetentionShorterThanAnHourIsRefusedNamingTheBuilderMethod() {
    assertThatThrownBy(
            () ->
                new NodeSettings.Retention.Builder()
                    .age(Duration.ofMinutes(59))
                    .interval(Duration.ofHours(1))
                    .build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("retention(Duration) must be at least 1h");
  }

  @Test
  void
      aServerWithoutWorkerThreadsOrWithAPollIntervalUnderFiveSecondsIsRefusedNamingTheBuilderMethod() {
    OwnJobRunr.ServerSettings.Builder server =
        new OwnJobRunr.ServerSettings.Builder()
            .name("node-1")
            .pollInterval(Duration.ofSeconds(5))
            .workerCount(64)
            .shutdownWait(Duration.ofSeconds(10));
    assertThat(server.build().workerCount()).isEqualTo(64);

    assertThatThrownBy(() -> server.workerCount(0).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("workerCount(int) must be at least 1");
    assertThatThrownBy(() -> server.workerCount(1).pollInterval(Duration.ofSeconds(4)).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("jobPollInterval(Duration) must be at least 5s");
  }
}
