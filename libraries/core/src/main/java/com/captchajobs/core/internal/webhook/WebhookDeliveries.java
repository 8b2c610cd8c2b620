package com.captchajobs.core.internal.webhook;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.jobrunr.Dispatcher;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.lanes.ClientLanes;
import com.captchajobs.core.internal.lanes.ParkedDeliveries;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.storage.StorageProvider;

/**
 * Webhook deliveries on a JobRunr of their own, apart from the solves: their own tables ({@code
 * <schema>.cj_webhook_jobrunr_*}), their own background job server with {@code
 * captchajobs.webhook.threads} workers, and their own retry policy ({@link WebhookRetryFilter}). A
 * receiver that answers slowly or never holds only these threads, and only its client's share of
 * them ({@link ClientLanes}); the submit and poll jobs run on the worker's server and never wait
 * for a receiver. A delivery is a stored job, so it survives a node's restart: delivery stays at
 * least once.
 */
public final class WebhookDeliveries implements AutoCloseable {

  private final OwnJobRunr jobRunr;
  private final BackgroundJobServer server;
  private final WebhookTrigger trigger;
  private final ClientLanes lanes;
  private final Dispatcher dispatcher;
  private final ParkedDeliveries parked;

  private WebhookDeliveries(
      OwnJobRunr jobRunr,
      BackgroundJobServer server,
      WebhookTrigger trigger,
      ClientLanes lanes,
      Dispatcher dispatcher,
      ParkedDeliveries parked) {
    this.jobRunr = jobRunr;
    this.server = server;
    this.trigger = trigger;
    this.lanes = lanes;
    this.dispatcher = dispatcher;
    this.parked = parked;
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
      WebhookSettings settings,
      WebhookJob job,
      SolveRepository repository,
      Clock clock) {
    OwnJobRunr jobRunr = OwnJobRunr.open(dataSource, OwnJobRunr.webhookTables(schema));
    Dispatcher dispatcher = new Dispatcher(dataSource, nodeName + "-webhooks");
    try {
      // The lanes and the parked deliveries call each other (a share passed to a parked delivery
      // requeues it; a requeue that fails passes the share on), so the lanes reach the parked
      // deliveries, built right after them, through this holder. A parked delivery is fetched
      // again at once rather than at JobRunr's next poll.
      AtomicReference<ParkedDeliveries> parkedHolder = new AtomicReference<>();
      ClientLanes lanes =
          new ClientLanes(
              settings.threadsPerClient(),
              ClientLanes.DEFAULT_FALLBACK,
              // an attempt's call may take twice the timeout; a share older than that plus a margin
              settings.timeout().multipliedBy(2).plus(Duration.ofMinutes(1)),
              clock,
              dispatcher::pollReady,
              id -> {
                ParkedDeliveries parked = parkedHolder.get();
                if (parked != null) {
                  parked.requeue(id);
                }
              });
      BackgroundJobServer server =
          jobRunr.startServer(
              new WorkerSettings(
                  nodeName + "-webhooks", pollInterval, settings.threads(), shutdownWait),
              Map.of(WebhookJob.class, job),
              List.of(
                  new WebhookRetryFilter(
                      settings.retries(), settings.backoff(), settings.maxBackoff(), lanes)));
      // Deliveries are fetched as soon as they are created on this node.
      dispatcher.fetchInto(server, null);
      ParkedDeliveries parked = new ParkedDeliveries(jobRunr.storage(), lanes, dispatcher);
      parkedHolder.set(parked);
      WebhookTrigger trigger =
          new WebhookTrigger(
              repository, jobRunr.scheduler(), settings.retries(), clock, dispatcher::pollReady);
      return new WebhookDeliveries(jobRunr, server, trigger, lanes, dispatcher, parked);
    } catch (RuntimeException e) {
      dispatcher.close();
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

  /** The clients' shares of this node's delivery threads. */
  public ClientLanes lanes() {
    return lanes;
  }

  public BackgroundJobServer server() {
    return server;
  }

  /** Stops fetching, hands this node's parked deliveries back to the fleet, then stops. */
  @Override
  public void close() {
    dispatcher.close();
    jobRunr.stopServer();
    parked.handBack(lanes.drainParked());
    parked.close();
    jobRunr.close();
  }
}
