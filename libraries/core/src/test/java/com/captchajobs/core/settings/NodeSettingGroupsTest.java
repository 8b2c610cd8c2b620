package com.captchajobs.core.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The rules of the node's groups of settings: each refuses, naming its group and method. */
@Tag("unit")
class NodeSettingGroupsTest {

  @Test
  void everyGroupBuiltUntouchedHoldsItsDefaultConstants() {
    WebhookSettings webhooks = WebhookSettings.defaults();
    assertThat(webhooks.timeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(webhooks.retries()).isEqualTo(8);
    assertThat(webhooks.threads()).isEqualTo(4);
    assertThat(webhooks.threadsPerClient()).isEqualTo(1);
    assertThat(webhooks.backoff()).isEqualTo(Duration.ofSeconds(10));
    assertThat(webhooks.maxBackoff()).isEqualTo(Duration.ofMinutes(10));
    assertThat(webhooks.signs()).isFalse();
    WorkerSettings worker = WorkerSettings.defaults();
    assertThat(worker.name())
        .startsWith("captchajobs-")
        .endsWith("-" + ProcessHandle.current().pid());
    assertThat(worker.pollInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(worker.workerCount()).isEqualTo(64);
    assertThat(worker.shutdownWait()).isEqualTo(Duration.ofSeconds(10));
    assertThat(RetentionSettings.defaults())
        .isEqualTo(new RetentionSettings(Duration.ofDays(7), Duration.ofHours(1)));
    assertThat(PingbackSettings.none()).isEqualTo(new PingbackSettings(null, null, true));
    assertThat(DashboardSettings.builder().username("ops").password("twelve-chars").build().port())
        .isEqualTo(8000);
  }

  @Test
  void aDeliveryWithoutThreadsPerClientGetsTheDefaultShareOfItsThreads() {
    WebhookSettings settings = WebhookSettings.builder().threads(9).build();

    assertThat(settings.threadsPerClient())
        .isEqualTo(WebhookSettings.defaultThreadsPerClient(9))
        .isEqualTo(4);
  }

  @Test
  void aWebhookTimeoutOfZeroIsRefusedNamingTheGroupAndMethod() {
    assertThatThrownBy(() -> WebhookSettings.builder().timeout(Duration.ZERO).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("WebhookSettings.timeout(Duration) must be positive")
        .extracting(e -> ((InvalidSettingException) e).settings())
        .isEqualTo(java.util.List.of("WebhookSettings.timeout"));
  }

  @Test
  void aWebhookSecretShorterThanSixteenCharactersIsRefused() {
    assertThatThrownBy(() -> WebhookSettings.builder().secret("fifteen-chars-x").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("WebhookSettings.secret(String) must be at least 16 characters");
  }

  @Test
  void aMaxBackoffShorterThanTheBackoffIsRefusedNamingBothMethodsWhateverTheOrderTheyWereSetIn() {
    assertThat(
            WebhookSettings.builder()
                .backoff(Duration.ofMinutes(30))
                .maxBackoff(Duration.ofHours(1))
                .build()
                .backoff())
        .as("a backoff above the default max-backoff, set first, is judged with the one set next")
        .isEqualTo(Duration.ofMinutes(30));
    assertThatThrownBy(() -> WebhookSettings.builder().maxBackoff(Duration.ofSeconds(5)).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "WebhookSettings.maxBackoff(Duration) must not be shorter than"
                + " WebhookSettings.backoff(Duration)");
  }

  @Test
  void aRetentionShorterThanAnHourIsRefusedNamingTheGroupAndMethod() {
    assertThatThrownBy(() -> RetentionSettings.builder().retention(Duration.ofMinutes(59)).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("RetentionSettings.retention(Duration) must be at least 1h");
  }

  @Test
  void aServerWithoutWorkerThreadsOrWithAPollIntervalUnderFiveSecondsIsRefused() {
    WorkerSettings.Builder server = WorkerSettings.builder().name("node-1");
    assertThat(server.build().workerCount()).isEqualTo(64);

    assertThatThrownBy(() -> server.workerCount(0).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("WorkerSettings.workerCount(int) must be at least 1");
    assertThatThrownBy(() -> server.workerCount(1).pollInterval(Duration.ofSeconds(4)).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("WorkerSettings.pollInterval(Duration) must be at least 5s");
    assertThatThrownBy(() -> server.pollInterval(Duration.ofSeconds(5)).name(" ").build())
        .hasMessage("WorkerSettings.name(String) must not be empty");
  }

  @Test
  void aDashboardWithoutItsCredentialsOrWithAShortPasswordIsRefused() {
    assertThatThrownBy(() -> DashboardSettings.builder().password("twelve-chars").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("DashboardSettings.username(String) is required");
    assertThatThrownBy(
            () -> DashboardSettings.builder().username("ops").password("eleven-char").build())
        .hasMessage(
            "DashboardSettings.password(String) must be at least 12 characters (it has 11)");
  }

  @Test
  void aPingbackUrlWithoutTheSecretOrInClearTextOffThisHostIsRefused() {
    String secret = "x".repeat(32);
    assertThatThrownBy(
            () -> PingbackSettings.builder().url("https://app.example/captchaai/pingback").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "PingbackSettings.secret(String) is required with PingbackSettings.url(String)");
    assertThatThrownBy(
            () ->
                PingbackSettings.builder()
                    .secret(secret)
                    .url("http://app.example/captchaai/pingback")
                    .build())
        .hasMessageStartingWith("PingbackSettings.url(String) must be https unless it names this");
    assertThat(
            PingbackSettings.builder()
                .secret(secret)
                .url("http://127.0.0.1:8080/captchaai/pingback")
                .build()
                .asksForPushes())
        .isTrue();
  }

  @Test
  void aGroupRebuiltFromItsBuilderIsEqualToItself() {
    WebhookSettings webhooks =
        WebhookSettings.builder()
            .secret("s".repeat(16))
            .clientSecret("shop", "c".repeat(16))
            .allowedHosts(java.util.List.of("hooks.internal"))
            .threads(9)
            .build();
    assertThat(webhooks.toBuilder().build()).isEqualTo(webhooks);
    WorkerSettings worker = WorkerSettings.builder().name("n").workerCount(3).build();
    assertThat(worker.toBuilder().build()).isEqualTo(worker);
  }
}
