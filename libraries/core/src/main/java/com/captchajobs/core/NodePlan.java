package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.internal.node.DashboardSettings;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.internal.node.PingbackSettings;
import com.captchajobs.core.internal.node.WebhookSettings;
import com.captchajobs.core.settings.SolveSettings;
import java.util.Optional;

/** What a {@link NodeBuilder}'s values make: the settings the engine's assembly starts from. */
final class NodePlan {

  private NodePlan() {}

  /** The builder's {@code settings} with the values set on the builder itself. */
  static SolveSettings solveSettings(NodeBuilder n) {
    SolveSettings.Builder b = n.settings.toBuilder();
    Optional.ofNullable(n.threads).ifPresent(b::threads);
    Optional.ofNullable(n.threadsReserve).ifPresent(b::threadsReserve);
    Optional.ofNullable(n.preflight).ifPresent(b::preflight);
    Optional.ofNullable(n.maxBackoff).ifPresent(b::maxBackoff);
    Optional.ofNullable(n.reconcileInterval).ifPresent(b::reconcileInterval);
    Optional.ofNullable(n.providerCheckInterval).ifPresent(b::providerCheckInterval);
    return b.build();
  }

  static NodeSettings nodeSettings(NodeBuilder n, SolveSettings solve) {
    return new NodeSettings(
        n.dataSource,
        n.schema,
        solve,
        n.runsWorker() ? captchaAi(n) : null,
        n.pingbackSecret == null
            ? null
            : new PingbackSettings(n.pingbackUrl, n.pingbackSecret, n.pingbackRegister),
        n.server.build(),
        new WebhookSettings(
            n.webhookSecret,
            n.webhookClientSecrets,
            n.webhookAllowedHosts,
            n.webhookIncludeToken,
            n.webhookDeliveries.build()),
        n.retention.build(),
        n.dashboardPort == null
            ? null
            : new DashboardSettings(
                n.dashboardPort, n.dashboardAddress, n.dashboardUsername, n.dashboardPassword),
        n.events,
        n.clock);
  }

  private static CaptchaAiClient captchaAi(NodeBuilder n) {
    return n.client != null
        ? n.client
        : CaptchaAiClient.builder()
            .apiKey(n.apiKey)
            .baseUrl(n.baseUrl)
            .connectTimeout(n.connectTimeout)
            .readTimeout(n.readTimeout)
            .build();
  }
}
