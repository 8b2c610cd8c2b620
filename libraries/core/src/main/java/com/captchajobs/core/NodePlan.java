package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;

/** What a {@link NodeBuilder}'s values make: the settings the engine's assembly starts from. */
final class NodePlan {

  private NodePlan() {}

  /**
   * Builds every group (each refuses a value that cannot work, naming its method), checks what
   * spans them ({@link NodeChecks}), and puts them together.
   *
   * @throws com.captchajobs.core.settings.InvalidSettingException naming the builder method
   */
  static NodeSettings nodeSettings(NodeBuilder n) {
    NodeChecks.checkNode(n);
    WorkerSettings worker = n.worker.build();
    WebhookSettings webhooks = n.webhooks.build();
    PingbackSettings pingbacks = n.pingbacks.build();
    NodeSettings settings =
        new NodeSettings(
            n.dataSource,
            n.schema,
            n.settings,
            n.runsWorker() ? captchaAi(n) : null,
            pingbacks.receives() ? pingbacks : null,
            worker,
            webhooks,
            n.retention.build(),
            n.servesDashboard ? n.dashboard.build() : null,
            n.events,
            n.clock,
            NodeChecks.providers(n.providers));
    NodeChecks.checkAcrossGroups(settings);
    return settings;
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
