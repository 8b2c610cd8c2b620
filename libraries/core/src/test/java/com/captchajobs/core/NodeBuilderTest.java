package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The builder's values and what {@link NodePlan} makes of them, without starting anything: the data
 * source is never connected to, and the groups are built and checked as {@code build()} does before
 * it starts the node.
 */
@Tag("unit")
class NodeBuilderTest {

  static final String KEY = "nodeBuilderTestKEYnodeBuilderTes";
  static final String PINGBACK_SECRET = "pingback-secret-of-the-builder-test-0123";

  private static NodeBuilder builder() {
    return (NodeBuilder) CaptchaJobs.builder().dataSource(new PGSimpleDataSource());
  }

  private static NodeSettings planOf(CaptchaJobs.Builder builder) {
    return NodePlan.nodeSettings((NodeBuilder) builder);
  }

  @Test
  void aBuilderLeftAloneMakesANodeThatOnlyEnqueuesWithEveryGroupAtItsDefaults() {
    NodeSettings node = planOf(builder());

    assertThat(node.schema()).isEqualTo("captchajobs");
    assertThat(node.runsWorker()).isFalse();
    assertThat(node.client()).isNull();
    assertThat(node.solve()).isEqualTo(SolveSettings.defaults());
    assertThat(node.server().toBuilder().name("n").build())
        .isEqualTo(WorkerSettings.defaults().toBuilder().name("n").build());
    assertThat(node.server().name()).startsWith(WorkerSettings.DEFAULT_NAME_PREFIX);
    assertThat(node.webhooks()).isEqualTo(WebhookSettings.defaults());
    assertThat(node.retention()).isEqualTo(RetentionSettings.defaults());
    assertThat(node.pingbacks()).as("no secret: no pushes").isNull();
    assertThat(node.dashboard()).as("no dashboard unless asked for").isNull();
    assertThat(node.events()).isSameAs(EngineListener.NONE);
    assertThat(builder().reportWindow).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void eachShortcutSetsOneValueOfItsGroup() {
    NodeSettings node =
        planOf(
            builder()
                .apiKey(KEY)
                .nodeName("node-7")
                .jobPollInterval(Duration.ofSeconds(6))
                .workerCount(3)
                .shutdownWait(Duration.ofSeconds(2))
                .webhookSecret("w".repeat(16))
                .webhookClientSecret("shop", "c".repeat(16))
                .webhookAllowedHosts(List.of("hooks.internal:8443"))
                .webhookIncludeToken(true)
                .webhookTimeout(Duration.ofSeconds(4))
                .webhookRetries(2)
                .webhookThreads(7)
                .webhookThreadsPerClient(2)
                .webhookBackoff(Duration.ofSeconds(3))
                .webhookMaxBackoff(Duration.ofSeconds(30))
                .retention(Duration.ofDays(2))
                .retentionInterval(Duration.ofMinutes(5))
                .pingbackSecret(PINGBACK_SECRET)
                .pingbackUrl("https://app.example/captchaai/pingback")
                .pingbackRegister(false)
                .dashboard(8100, "ops", "twelve-chars")
                .dashboardAddress("0.0.0.0"));

    assertThat(node.runsWorker()).isTrue();
    assertThat(node.server())
        .isEqualTo(new WorkerSettings("node-7", Duration.ofSeconds(6), 3, Duration.ofSeconds(2)));
    assertThat(node.webhooks())
        .isEqualTo(
            WebhookSettings.builder()
                .secret("w".repeat(16))
                .clientSecret("shop", "c".repeat(16))
                .allowedHosts(List.of("hooks.internal:8443"))
                .includeToken(true)
                .timeout(Duration.ofSeconds(4))
                .retries(2)
                .threads(7)
                .threadsPerClient(2)
                .backoff(Duration.ofSeconds(3))
                .maxBackoff(Duration.ofSeconds(30))
                .build());
    assertThat(node.retention())
        .isEqualTo(new RetentionSettings(Duration.ofDays(2), Duration.ofMinutes(5)));
    assertThat(node.pingbacks())
        .isEqualTo(
            new PingbackSettings("https://app.example/captchaai/pingback", PINGBACK_SECRET, false));
    assertThat(node.dashboard())
        .isEqualTo(new DashboardSettings(8100, "0.0.0.0", "ops", "twelve-chars"));
  }

  @Test
  void aGroupReplacesWhatItsShortcutsSetBeforeAndAShortcutAfterItChangesOneValue() {
    NodeSettings node =
        planOf(
            builder()
                .webhookRetries(1)
                .webhookThreads(9)
                .webhooks(WebhookSettings.builder().retries(5).build())
                .webhookTimeout(Duration.ofSeconds(3)));

    assertThat(node.webhooks().retries()).isEqualTo(5);
    assertThat(node.webhooks().threads())
        .as("the group replaced the shortcut set before it")
        .isEqualTo(WebhookSettings.DEFAULT_THREADS);
    assertThat(node.webhooks().timeout()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aDashboardAddressAloneTurnsNoDashboardOn() {
    assertThat(planOf(builder().dashboardAddress("0.0.0.0")).dashboard()).isNull();
    assertThat(
            planOf(
                    builder()
                        .dashboard(
                            DashboardSettings.builder()
                                .username("ops")
                                .password("twelve-chars")
                                .build()))
                .dashboard()
                .port())
        .isEqualTo(DashboardSettings.DEFAULT_PORT);
  }

  @Test
  void aNodeGivenOnlyThePingbackSecretReceivesPushesButAsksForNone() {
    PingbackSettings pingbacks = planOf(builder().pingbackSecret(PINGBACK_SECRET)).pingbacks();

    assertThat(pingbacks.receives()).isTrue();
    assertThat(pingbacks.asksForPushes()).isFalse();
  }

  @Test
  void aBuilderWithoutADataSourceIsRefusedNamingTheMethod() {
    assertThatThrownBy(() -> planOf(CaptchaJobs.builder().apiKey(KEY)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("dataSource(DataSource) is required");
  }

  @Test
  void aBlankApiKeyIsRefusedRatherThanTakenForANodeThatOnlyEnqueues() {
    assertThatThrownBy(() -> planOf(builder().apiKey(" ")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("apiKey(String) must not be blank");
  }

  @Test
  void aReportWindowOutsideOneSecondToOneHourIsRefusedNamingTheMethod() {
    assertThatThrownBy(() -> planOf(builder().reportWindow(Duration.ofHours(2))))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("CaptchaJobs.Builder.reportWindow(Duration) must be between 1s and 1h");
  }

  @Test
  void aHalfConfiguredNodeIsRefusedNamingWhatIsMissing() {
    assertThatThrownBy(() -> planOf(builder().dashboard(8000, "ops", null)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("DashboardSettings.password(String) is required");
    assertThatThrownBy(
            () ->
                planOf(builder().apiKey(KEY).pingbackUrl("https://app.example/captchaai/pingback")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "PingbackSettings.secret(String) is required with PingbackSettings.url(String)");
    assertThatThrownBy(() -> planOf(builder().webhookThreads(2).webhookThreadsPerClient(3)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "WebhookSettings.threadsPerClient(Integer) must be between 1 and"
                + " WebhookSettings.threads(int)");
  }

  @Test
  void aWorkersRetentionMustOutlastTheWebhookRetriesItWouldCutShort() {
    CaptchaJobs.Builder worker =
        builder()
            .apiKey(KEY)
            .webhookSecret("w".repeat(16))
            .webhookRetries(20)
            .webhookMaxBackoff(Duration.ofHours(1))
            .retention(Duration.ofHours(2));

    assertThatThrownBy(() -> planOf(worker))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("RetentionSettings.retention(Duration) (PT2H) must be longer than")
        .hasMessageContaining("WebhookSettings.retries(int)")
        .extracting(e -> ((InvalidSettingException) e).settings().get(0))
        .isEqualTo("RetentionSettings.retention");
    assertThat(planOf(builder().webhookSecret("w".repeat(16)).webhookRetries(20)).runsWorker())
        .as("a node that only enqueues deletes nothing, so its retention is not held to it")
        .isFalse();
  }

  @Test
  void aWorkersRetentionMustOutlastEveryTokenItKeeps() {
    assertThatThrownBy(
            () ->
                planOf(
                    builder()
                        .apiKey(KEY)
                        .retention(Duration.ofHours(1))
                        .settings(
                            SolveSettings.builder()
                                .tokenTtl(CaptchaType.TURNSTILE, Duration.ofHours(2))
                                .build())))
        .hasMessage(
            "RetentionSettings.retention(Duration) (PT1H) must be longer than"
                + " tokenTtl(CaptchaType, Duration).TURNSTILE (PT2H)");
  }
}
