package com.captchajobs.core;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.egress.WebhookEgress;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.internal.webhook.WebhookRetryFilter;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.WebhookSettings;
import java.time.Duration;
import java.util.Map;
import okhttp3.Dns;

/**
 * What {@link CaptchaJobs.Builder#build} refuses beyond the rules each group of settings owns: the
 * node's own settings, and the rules that span groups. Each message names the builder methods
 * ({@link InvalidSettingException}); the Spring Boot starter names the properties.
 */
final class NodeChecks {

  private NodeChecks() {}

  /** The settings of the builder itself. */
  static void checkNode(NodeBuilder n) {
    require(n.dataSource != null, "{dataSource(DataSource)} is required");
    require(
        n.apiKey == null || !n.apiKey.isBlank(),
        "{apiKey(String)} must not be blank (leave it unset on nodes that only enqueue)");
    require(
        n.reportWindow != null
            && n.reportWindow.compareTo(Duration.ofSeconds(1)) >= 0
            && n.reportWindow.compareTo(Duration.ofHours(1)) <= 0,
        "{CaptchaJobs.Builder.reportWindow(Duration)} must be between 1s and 1h");
  }

  /** What no one group can check alone. */
  static void checkAcrossGroups(NodeSettings s) {
    allowedHosts(s.webhooks());
    if (s.runsWorker()) {
      retentionOutlastsWhatItDeletes(s);
    }
  }

  /** The egress checks each entry, naming the property; here the group's method is named. */
  private static void allowedHosts(WebhookSettings webhooks) {
    try {
      new WebhookEgress(webhooks.allowedHosts(), Dns.SYSTEM);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(
          e.getMessage()
              .replace(
                  "captchajobs.webhook.allowed-hosts",
                  "{WebhookSettings.allowedHosts(Collection)}"));
    }
  }

  /**
   * Retention deletes solves (with their tokens) on worker nodes: a token still valid or a delivery
   * still being retried must not lose its row.
   */
  private static void retentionOutlastsWhatItDeletes(NodeSettings s) {
    RetentionSettings retention = s.retention();
    Duration age = retention.retention();
    for (Map.Entry<CaptchaType, Duration> ttl : s.solve().tokenTtl().entrySet()) {
      require(
          age.compareTo(ttl.getValue()) > 0,
          "{RetentionSettings.retention(Duration)} ("
              + age
              + ") must be longer than {tokenTtl(CaptchaType, Duration)}."
              + ttl.getKey()
              + " ("
              + ttl.getValue()
              + ")");
    }
    WebhookSettings webhooks = s.webhooks();
    if (webhooks.signs()) {
      Duration span =
          WebhookRetryFilter.longestRetrySpan(
              webhooks.retries(),
              webhooks.backoff(),
              webhooks.maxBackoff(),
              webhooks.timeout(),
              s.server().pollInterval());
      require(
          age.compareTo(span) > 0,
          "{RetentionSettings.retention(Duration)} ("
              + age
              + ") must be longer than the webhook retry span ("
              + span
              + " at most, from {WebhookSettings.retries(int)}, {WebhookSettings.backoff(Duration)},"
              + " {WebhookSettings.maxBackoff(Duration)} and {WebhookSettings.timeout(Duration)})");
    }
  }

  /** The providers beside the primary, each name once (the builder of each checked the rest). */
  static java.util.List<com.captchajobs.core.settings.ProviderSettings> providers(
      java.util.List<com.captchajobs.core.settings.ProviderSettings> providers) {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (var p : providers) {
      require(
          names.add(p.name()),
          "{ProviderSettings.name(String)} '" + p.name() + "' is given twice: each name once");
    }
    return java.util.List.copyOf(providers);
  }
}
