package com.captchajobs.core.internal.webhook;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.jobrunr.Dispatcher;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.lanes.ClientLanes;
import com.captchajobs.core.internal.lanes.ParkedDeliveries;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.settings.InvalidSettingException;
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

  /**
   * How a worker delivers webhooks, filled by {@code CaptchaJobs.Builder} through {@link Builder}
   * and refused here when it cannot work: the one place of these rules (the messages name the
   * builder methods; the starter names its {@code captchajobs.webhook.*} properties instead).
   *
   * @param threads deliveries in flight on this node
   * @param retries retries of a delivery without a 2xx answer
   * @param backoff wait before the first retry, doubled for each further one
   * @param maxBackoff upper bound of one wait
   * @param threadsPerClient deliveries of one client in flight on this node ({@link ClientLanes})
   * @param attemptTimeout longest one attempt may take
   * @throws InvalidSettingException naming the builder method of a value that cannot work
   */
  public record Settings(
      int threads,
      int retries,
      Duration backoff,
      Duration maxBackoff,
      int threadsPerClient,
      Duration attemptTimeout) {

    public Settings {
      require(
          attemptTimeout != null && !attemptTimeout.isNegative() && !attemptTimeout.isZero(),
          "{webhookTimeout(Duration)} must be positive");
      require(retries >= 0, "{webhookRetries(int)} must not be negative");
      require(threads >= 1, "{webhookThreads(int)} must be at least 1");
      require(
          backoff != null && backoff.compareTo(Duration.ofSeconds(1)) >= 0,
          "{webhookBackoff(Duration)} must be at least 1s");
      require(
          maxBackoff != null && maxBackoff.compareTo(backoff) >= 0,
          "{webhookMaxBackoff(Duration)} must not be shorter than {webhookBackoff(Duration)}");
      require(
          threadsPerClient >= 1 && threadsPerClient <= threads,
          "{webhookThreadsPerClient(Integer)} must be between 1 and {webhookThreads(int)}");
    }

    /**
     * {@code (threads - 1) / 2}, at least 1: the default share of one client, so that no two
     * clients can hold every thread ({@link ClientLanes#defaultShare}).
     */
    public static int defaultThreadsPerClient(int threads) {
      return ClientLanes.defaultShare(threads);
    }

    /** The settings as the builder sets them one by one; {@link #build} checks them. */
    public static final class Builder {
      private int threads;
      private int retries;
      private Duration backoff;
      private Duration maxBackoff;
      private Integer threadsPerClient;
      private Duration attemptTimeout;

      public Builder threads(int threads) {
        this.threads = threads;
        return this;
      }

      public Builder retries(int retries) {
        this.retries = retries;
        return this;
      }

      public Builder backoff(Duration backoff) {
        this.backoff = backoff;
        return this;
      }

      public Builder maxBackoff(Duration maxBackoff) {
        this.maxBackoff = maxBackoff;
        return this;
      }

      /** Null: {@link #defaultThreadsPerClient} of the threads. */
      public Builder threadsPerClient(Integer threadsPerClient) {
        this.threadsPerClient = threadsPerClient;
        return this;
      }

      public Builder attemptTimeout(Duration attemptTimeout) {
        this.attemptTimeout = attemptTimeout;
        return this;
      }

      /**
       * @throws InvalidSettingException naming the builder method of a value that cannot work
       */
      public Settings build() {
        return new Settings(
            threads,
            retries,
            backoff,
            maxBackoff,
            threadsPerClient != null ? threadsPerClient : defaultThreadsPerClient(threads),
            attemptTimeout);
      }
    }
  }

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
      Settings settings,
      WebhookJob job,
      SolveRepository repository,
      Clock clock) {
    OwnJobRunr jobRunr = OwnJobRunr.open(dataSource, OwnJobRunr.webhookTables(schema));
    Dispatcher dispatcher = new Dispatcher(dataSource, nodeName + "-webhooks");
    try {
      // an attempt's call may take twice the timeout; a share older than that plus a margin lapsed
      // The lanes and the parked deliveries call each other (a share passed to a parked delivery
      // requeues it; a requeue that fails passes the share on), so the lanes reach the parked
      // deliveries, built right after them, through this holder. A parked delivery is fetched
      // again at once rather than at JobRunr's next poll.
      AtomicReference<ParkedDeliveries> parkedHolder = new AtomicReference<>();
      ClientLanes lanes =
          new ClientLanes(
              settings.threadsPerClient(),
              ClientLanes.DEFAULT_FALLBACK,
              settings.attemptTimeout().multipliedBy(2).plus(Duration.ofMinutes(1)),
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
              new OwnJobRunr.ServerSettings(
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

  /** The deliveries' background job server on this node. */
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
