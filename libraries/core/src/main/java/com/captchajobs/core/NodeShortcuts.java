package com.captchajobs.core;

import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import java.time.Duration;
import java.util.Collection;

/**
 * The shortcuts of {@link CaptchaJobs.Builder}: each sets one value of a group of settings, where
 * that reads better than building the group ({@code .webhookSecret(s)} rather than {@code
 * .webhooks(WebhookSettings.builder().secret(s).build())}). The group's builder holds the default
 * and the group refuses what cannot work, naming its own method ({@code
 * WebhookSettings.timeout(Duration) must be positive}).
 *
 * @param <B> the builder, returned by every shortcut
 */
public interface NodeShortcuts<B> {

  /** {@link WorkerSettings.Builder#name}. */
  B nodeName(String nodeName);

  /** {@link WorkerSettings.Builder#pollInterval}. */
  B jobPollInterval(Duration jobPollInterval);

  /** {@link WorkerSettings.Builder#workerCount}. */
  B workerCount(int workerCount);

  /** {@link WorkerSettings.Builder#shutdownWait}. */
  B shutdownWait(Duration shutdownWait);

  /** {@link PingbackSettings.Builder#secret}. */
  B pingbackSecret(String pingbackSecret);

  /** {@link PingbackSettings.Builder#url}. */
  B pingbackUrl(String pingbackUrl);

  /** {@link PingbackSettings.Builder#register}. */
  B pingbackRegister(boolean pingbackRegister);

  /** {@link WebhookSettings.Builder#secret}. */
  B webhookSecret(String webhookSecret);

  /** {@link WebhookSettings.Builder#clientSecret}. */
  B webhookClientSecret(String client, String secret);

  /** {@link WebhookSettings.Builder#allowedHosts}. */
  B webhookAllowedHosts(Collection<String> hosts);

  /** {@link WebhookSettings.Builder#includeToken}. */
  B webhookIncludeToken(boolean webhookIncludeToken);

  /** {@link WebhookSettings.Builder#timeout}. */
  B webhookTimeout(Duration webhookTimeout);

  /** {@link WebhookSettings.Builder#retries}. */
  B webhookRetries(int webhookRetries);

  /** {@link WebhookSettings.Builder#threads}. */
  B webhookThreads(int webhookThreads);

  /** {@link WebhookSettings.Builder#threadsPerClient}. */
  B webhookThreadsPerClient(Integer webhookThreadsPerClient);

  /** {@link WebhookSettings.Builder#backoff}. */
  B webhookBackoff(Duration webhookBackoff);

  /** {@link WebhookSettings.Builder#maxBackoff}. */
  B webhookMaxBackoff(Duration webhookMaxBackoff);

  /** {@link RetentionSettings.Builder#retention}. */
  B retention(Duration retention);

  /** {@link RetentionSettings.Builder#retentionInterval}. */
  B retentionInterval(Duration retentionInterval);

  /**
   * Turns the dashboard on with these values ({@link DashboardSettings.Builder#port}, {@link
   * DashboardSettings.Builder#username}, {@link DashboardSettings.Builder#password}).
   */
  B dashboard(int port, String username, String password);

  /** {@link DashboardSettings.Builder#address}. */
  B dashboardAddress(String dashboardAddress);
}
