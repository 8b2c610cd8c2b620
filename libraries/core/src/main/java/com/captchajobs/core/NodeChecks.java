package com.captchajobs.core;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.egress.WebhookEgress;
import com.captchajobs.core.internal.webhook.WebhookDeliveries;
import com.captchajobs.core.internal.webhook.WebhookRetryFilter;
import com.captchajobs.core.pingback.PingbackRules;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Duration;
import java.util.Map;
import okhttp3.Dns;

/**
 * What {@link CaptchaJobs.Builder#build} refuses before it starts anything. Each message names the
 * builder methods ({@link InvalidSettingException}); the Spring Boot starter names the properties.
 */
final class NodeChecks {

  private NodeChecks() {}

  static void check(NodeBuilder n, SolveSettings solve) {
    require(n.dataSource != null, "{dataSource(DataSource)} is required");
    require(
        n.apiKey == null || !n.apiKey.isBlank(),
        "{apiKey(String)} must not be blank (leave it unset on nodes that only enqueue)");
    Duration jobPollInterval = n.server.build().pollInterval();
    WebhookDeliveries.Settings deliveries = n.webhookDeliveries.build();
    Duration retention = n.retention.build().age();
    require(
        n.reportWindow != null
            && n.reportWindow.compareTo(Duration.ofSeconds(1)) >= 0
            && n.reportWindow.compareTo(Duration.ofHours(1)) <= 0,
        "{reportWindow(Duration)} must be between 1s and 1h");
    allowedHosts(n);
    if (n.runsWorker()) {
      retentionOutlastsWhatItDeletes(n, retention, jobPollInterval, solve, deliveries);
    }
    PingbackRules.check(n.pingbackUrl, n.pingbackSecret);
    if (n.dashboardPort != null) {
      require(
          has(n.dashboardUsername) && has(n.dashboardPassword),
          "{dashboard(int, String, String)} needs a username and a password");
      require(
          n.dashboardPassword.length() >= CaptchaJobs.Builder.MIN_DASHBOARD_PASSWORD,
          "{dashboard(int, String, String)} needs a password of at least "
              + CaptchaJobs.Builder.MIN_DASHBOARD_PASSWORD
              + " characters");
    }
  }

  /** The egress checks each entry, naming the property; here the builder method is named. */
  private static void allowedHosts(NodeBuilder n) {
    try {
      new WebhookEgress(n.webhookAllowedHosts, Dns.SYSTEM);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(
          e.getMessage()
              .replace("captchajobs.webhook.allowed-hosts", "{webhookAllowedHosts(Collection)}"));
    }
  }

  /**
   * Retention deletes solves (with their tokens) on worker nodes: a token still valid or a delivery
   * still being retried must not lose its row.
   */
  private static void retentionOutlastsWhatItDeletes(
      NodeBuilder n,
      Duration retention,
      Duration jobPollInterval,
      SolveSettings solve,
      WebhookDeliveries.Settings deliveries) {
    for (Map.Entry<CaptchaType, Duration> ttl : solve.tokenTtl().entrySet()) {
      require(
          retention.compareTo(ttl.getValue()) > 0,
          "{retention(Duration)} ("
              + retention
              + ") must be longer than {tokenTtl(CaptchaType, Duration)}."
              + ttl.getKey()
              + " ("
              + ttl.getValue()
              + ")");
    }
    if (n.webhookSecret != null || !n.webhookClientSecrets.isEmpty()) {
      Duration span =
          WebhookRetryFilter.longestRetrySpan(
              deliveries.retries(),
              deliveries.backoff(),
              deliveries.maxBackoff(),
              deliveries.attemptTimeout(),
              jobPollInterval);
      require(
          retention.compareTo(span) > 0,
          "{retention(Duration)} ("
              + retention
              + ") must be longer than the webhook retry span ("
              + span
              + " at most, from {webhookRetries(int)}, {webhookBackoff(Duration)},"
              + " {webhookMaxBackoff(Duration)} and {webhookTimeout(Duration)})");
    }
  }

  private static boolean has(String value) {
    return value != null && !value.isBlank();
  }
}
