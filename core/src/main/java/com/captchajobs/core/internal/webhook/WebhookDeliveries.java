package com.captchajobs.core.internal.webhook;

import com.captchajobs.core.internal.engine.Schema;
import com.captchajobs.core.internal.engine.SolveRepository;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.storage.StorageProvider;

/**
 * Webhook deliveries on a JobRunr of their own, apart from the solves: their own tables ({@code
 * <schema>.cj_webhook_jobrunr_*}), their own background job server with {@code
 * captchajobs.webhook.threads} workers, and their own retry policy ({@link WebhookRetryFilter}). A
 * receiver that answers slowly or never holds only these threads; the submit and poll jobs run on
 * the worker's server and never wait for a receiver. A delivery is a stored job, so it survives a
 * node's restart: delivery stays at least once.
 */
public final class WebhookDeliveries implements AutoCloseable {

  /**
   * @param threads deliveries in flight on this node
   * @param retries retries of a delivery without a 2xx answer
   * @param backoff wait before the first retry, doubled for each further one
   * @param maxBackoff upper bound of one wait
   */
  public record Settings(int threads, int retries, Duration backoff, Duration maxBackoff) {}

  private final OwnJobRunr jobRunr;
  private final BackgroundJobServer server;
  private final WebhookTrigger trigger;

  private WebhookDeliveries(
      OwnJobRunr jobRunr, BackgroundJobServer server, WebhookTrigger trigger) {
    this.jobRunr = jobRunr;
    this.server = server;
    this.trigger = trigger;
  }

  /**
   * Opens the deliveries' tables and starts their server on this node.
   *
   * @param nodeName the worker node's name; the server is {@code <nodeName>-webhooks}
   * @param pollInterval how often the server looks for due deliveries and retries
   * @param shutdownWait how long a stopping server waits for deliveries under way
   */
  public static WebhookDeliveries start(
      DataSource dataSource,
      Schema schema,
      String nodeName,
      Duration pollInterval,
      Duration shutdownWait,
      Settings settings,
      WebhookJob job,
      SolveRepository repository,
      Clock clock) {
    OwnJobRunr jobRunr = OwnJobRunr.open(dataSource, OwnJobRunr.webhookTables(schema));
    try {
      BackgroundJobServer server =
          jobRunr.startServer(
              new OwnJobRunr.ServerSettings(
                  nodeName + "-webhooks", pollInterval, settings.threads(), shutdownWait),
              Map.of(WebhookJob.class, job),
              List.of(
                  new WebhookRetryFilter(
                      settings.retries(), settings.backoff(), settings.maxBackoff())));
      WebhookTrigger trigger =
          new WebhookTrigger(repository, jobRunr.scheduler(), settings.retries(), clock);
      return new WebhookDeliveries(jobRunr, server, trigger);
    } catch (RuntimeException e) {
      jobRunr.close();
      throw e;
    }
  }

  /** Creates a solve's delivery job when it reaches an outcome; a notification listener. */
  public WebhookTrigger trigger() {
    return trigger;
  }

  /** The deliveries' JobRunr storage (their jobs, with their retries and failures). */
  public StorageProvider storage() {
    return jobRunr.storage();
  }

  /** The deliveries' background job server on this node. */
  public BackgroundJobServer server() {
    return server;
  }

  @Override
  public void close() {
    jobRunr.close();
  }
}
