package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.assembly.Engine;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.node.EngineParts;
import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.pingback.PingbackReceiver;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.jobrunr.storage.StorageProvider;

/**
 * CaptchaJobs in plain Java: give it a PostgreSQL {@link DataSource} and get {@link Solves}. With a
 * CaptchaAI key it also runs a worker on this node: the submit and poll jobs on CaptchaJobs' own
 * JobRunr server, whose tables live in their own schema beside anything else in the database.
 *
 * <pre>{@code
 * try (CaptchaJobs captchaJobs = CaptchaJobs.builder()
 *     .dataSource(dataSource)
 *     .apiKey(System.getenv("CAPTCHAAI_API_KEY")) // omit on nodes that only enqueue
 *     .settings(SolveSettings.builder().threads(5).build()) // the plan's threads, for the fleet
 *     .build()) {
 *   Solves solves = captchaJobs.solves();
 *   UUID id = solves.enqueue(SolveRequest.turnstile("signup-42", sitekey, pageUrl));
 *   ClaimedToken token = solves.await(id, Duration.ofMinutes(3)).thenApply(s -> solves.claim(id)).join();
 * }
 * }</pre>
 *
 * {@link Builder#build} migrates the schema and starts the node's parts; {@link #close} stops them.
 */
public final class CaptchaJobs implements AutoCloseable {

  private final Engine engine;
  private final Solves solves;
  private final Operations operations;

  CaptchaJobs(Engine engine, Solves solves) {
    this.engine = engine;
    this.solves = solves;
    this.operations = Operations.of(engine, this::jobCounts);
    EngineParts.register(this, engine.parts());
  }

  public static Builder builder() {
    return new NodeBuilder();
  }

  /** The Java API: enqueue, status, await, claim, solveNow. */
  public Solves solves() {
    return solves;
  }

  /** What operators read and do: solves, batches, requeues, the gate, breakers, this worker. */
  public Operations operations() {
    return operations;
  }

  /**
   * Where an answer the provider pushed is handed over ({@code /captchaai/pingback}); present on a
   * node given a pingback secret.
   */
  public Optional<PingbackReceiver> pingbacks() {
    return engine.parts().find(Pingbacks.class).map(PingbackReceiver.class::cast);
  }

  /** Whether this node runs a worker (it was given an API key). */
  public boolean runsWorker() {
    return engine.worker() != null;
  }

  /** The schema that holds every CaptchaJobs table. */
  public String schema() {
    return engine.schema().name();
  }

  /**
   * CaptchaJobs' own JobRunr jobs by state ({@code AWAITING}, {@code SCHEDULED}, {@code ENQUEUED},
   * {@code PROCESSING}, {@code FAILED}, {@code SUCCEEDED}, {@code DELETED}), never a host's; one
   * query per call, so callers that poll it should cache it.
   */
  public Map<String, Long> jobCounts() {
    return engine.parts().find(StorageProvider.class).map(OwnJobRunr::jobCounts).orElse(Map.of());
  }

  /** Stops the dashboard, the server, the listener and the repair pass, in reverse start order. */
  @Override
  public void close() {
    engine.parts().close();
  }

  /**
   * Every setting of a node with its default; only the data source is required. {@link #build}
   * refuses a setting that cannot work with an {@link InvalidSettingException} naming the method.
   */
  public interface Builder {

    String DEFAULT_NODE_PREFIX = "captchajobs-";

    String DEFAULT_SCHEMA = "captchajobs";
    Duration DEFAULT_JOB_POLL_INTERVAL = Duration.ofSeconds(5);
    int DEFAULT_WORKER_COUNT = 64;
    Duration DEFAULT_SHUTDOWN_WAIT = Duration.ofSeconds(10);

    /**
     * @deprecated the default of a deprecated second route; {@link
     *     SolveSettings#DEFAULT_RECONCILE_INTERVAL} is the one
     */
    @Deprecated Duration DEFAULT_RECONCILE_INTERVAL = SolveSettings.DEFAULT_RECONCILE_INTERVAL;

    /**
     * @deprecated the default of a deprecated second route; {@link
     *     SolveSettings#DEFAULT_PROVIDER_CHECK_INTERVAL} is the one
     */
    @Deprecated
    Duration DEFAULT_PROVIDER_CHECK_INTERVAL = SolveSettings.DEFAULT_PROVIDER_CHECK_INTERVAL;

    /**
     * @deprecated the default of a deprecated second route; {@link
     *     SolveSettings#DEFAULT_MAX_BACKOFF} is the one
     */
    @Deprecated Duration DEFAULT_MAX_BACKOFF = SolveSettings.DEFAULT_MAX_BACKOFF;

    Duration DEFAULT_WEBHOOK_TIMEOUT = Duration.ofSeconds(10);
    int DEFAULT_WEBHOOK_RETRIES = 8;
    int DEFAULT_WEBHOOK_THREADS = 4;
    Duration DEFAULT_WEBHOOK_BACKOFF = Duration.ofSeconds(10);
    Duration DEFAULT_WEBHOOK_MAX_BACKOFF = Duration.ofMinutes(10);
    Duration DEFAULT_RETENTION = Duration.ofDays(7);
    Duration DEFAULT_RETENTION_INTERVAL = Duration.ofHours(1);
    Duration DEFAULT_REPORT_WINDOW = Duration.ofMinutes(10);
    int DEFAULT_DASHBOARD_PORT = 8000;

    /** The shortest dashboard password {@link #dashboard} accepts. */
    int MIN_DASHBOARD_PASSWORD = 12;

    /** The PostgreSQL database shared by every node of the fleet. Required. */
    Builder dataSource(DataSource dataSource);

    /** Schema of every table, JobRunr's included, created when missing; "captchajobs". */
    Builder schema(String schema);

    /** CaptchaAI API key. Set, this node runs a worker; unset (default), it only enqueues. */
    Builder apiKey(String apiKey);

    /** CaptchaAI's base URL; {@link CaptchaAiClient#DEFAULT_BASE_URL}. */
    Builder baseUrl(String baseUrl);

    /** Connect timeout of calls to CaptchaAI; {@link CaptchaAiClient#DEFAULT_CONNECT_TIMEOUT}. */
    Builder connectTimeout(Duration connectTimeout);

    /** Read timeout of calls to CaptchaAI; {@link CaptchaAiClient#DEFAULT_READ_TIMEOUT}. */
    Builder readTimeout(Duration readTimeout);

    /** A ready client instead of key, base URL and timeouts. */
    Builder client(CaptchaAiClient client);

    /** The engine's timing and limits; {@link SolveSettings#defaults()}. */
    Builder settings(SolveSettings settings);

    /**
     * The fleet's cap of solves in flight; wins over {@link #settings}' (5 by default).
     *
     * @deprecated a second route to {@code SolveSettings.Builder.threads(int)}: set it there, with
     *     {@link #settings}. Still applied, and it still wins over {@link #settings}, with a WARN.
     */
    @Deprecated
    Builder threads(int threads);

    /**
     * Plan threads kept free for others of the key; wins over {@link #settings}' (0).
     *
     * @deprecated a second route to {@code SolveSettings.Builder.threadsReserve(int)}: set it
     *     there, with {@link #settings}. Still applied, and it still wins over {@link #settings},
     *     with a WARN.
     */
    @Deprecated
    Builder threadsReserve(int threadsReserve);

    /**
     * Whether a worker refuses a plan smaller than the cap; wins over {@link #settings}' (true).
     *
     * @deprecated a second route to {@code SolveSettings.Builder.preflight(boolean)}: set it there,
     *     with {@link #settings}. Still applied, and it still wins over {@link #settings}, with a
     *     WARN.
     */
    @Deprecated
    Builder preflight(boolean preflight);

    /**
     * Upper bound of one backoff wait; wins over {@link #settings}' (60 s).
     *
     * @deprecated a second route to {@code SolveSettings.Builder.maxBackoff(Duration)}: set it
     *     there, with {@link #settings}. Still applied, and it still wins over {@link #settings},
     *     with a WARN.
     */
    @Deprecated
    Builder maxBackoff(Duration maxBackoff);

    /**
     * Interval of the repair pass; wins over {@link #settings}' (2 s).
     *
     * @deprecated a second route to {@code SolveSettings.Builder.reconcileInterval(Duration)}: set
     *     it there, with {@link #settings}. Still applied, and it still wins over {@link
     *     #settings}, with a WARN.
     */
    @Deprecated
    Builder reconcileInterval(Duration reconcileInterval);

    /**
     * Interval of the threadsinfo check; wins over {@link #settings}' (30 s).
     *
     * @deprecated a second route to {@code SolveSettings.Builder.providerCheckInterval(Duration)}:
     *     set it there, with {@link #settings}. Still applied, and it still wins over {@link
     *     #settings}, with a WARN.
     */
    @Deprecated
    Builder providerCheckInterval(Duration providerCheckInterval);

    /** Name of this node in the gate and the dashboard; {@code captchajobs-<host>-<pid>}. */
    Builder nodeName(String nodeName);

    /** How often our JobRunr server looks for due jobs, at least 5 s (JobRunr's SQL minimum). */
    Builder jobPollInterval(Duration jobPollInterval);

    /** Threads of our JobRunr server here; 64 (poll jobs wait in theirs, so threads are cheap). */
    Builder workerCount(int workerCount);

    /** How long a stopping server waits for running jobs before interrupting them; 10 s. */
    Builder shutdownWait(Duration shutdownWait);

    /** The fleet's key of pingback signatures (32 characters or more, the same on every node). */
    Builder pingbackSecret(String pingbackSecret);

    /** An app node's {@code /captchaai/pingback}, to push answers to; needs the secret. */
    Builder pingbackUrl(String pingbackUrl);

    /**
     * Whether a worker with a pingback URL registers its host with the provider at startup ({@code
     * add_pingback}, then {@code get_pingback}); default true. Answers are only logged.
     */
    Builder pingbackRegister(boolean pingbackRegister);

    /**
     * Node secret of webhook signatures, also the root of the keys of clients without their own.
     * Unset (default): only clients with their own secret get webhooks.
     */
    Builder webhookSecret(String webhookSecret);

    /** The secret of one API client's webhooks; the others use keys derived from the node's. */
    Builder webhookClientSecret(String client, String secret);

    /** Non-public origins a webhook may reach: host (https:443), host:port, http://host:port. */
    Builder webhookAllowedHosts(Collection<String> hosts);

    /** Whether the webhook body carries the token; false. */
    Builder webhookIncludeToken(boolean webhookIncludeToken);

    /** Connect and read timeout of one delivery; 10 s. */
    Builder webhookTimeout(Duration webhookTimeout);

    /** Retries of a delivery that got no 2xx answer; 8. */
    Builder webhookRetries(int webhookRetries);

    /** Deliveries in flight on this node, on their own JobRunr server; 4. */
    Builder webhookThreads(int webhookThreads);

    /**
     * Deliveries of one API client in flight on this node; null: {@code (threads - 1) / 2}, at
     * least 1, so that no two clients hold every thread.
     */
    Builder webhookThreadsPerClient(Integer webhookThreadsPerClient);

    /** Wait before a delivery's first retry, doubled for each further one, at least 1 s; 10 s. */
    Builder webhookBackoff(Duration webhookBackoff);

    /** Upper bound of one wait between delivery retries; 10 min. */
    Builder webhookMaxBackoff(Duration webhookMaxBackoff);

    /** Age after which worker nodes delete final solves, at least 1 h; 7 days. */
    Builder retention(Duration retention);

    /** How often a worker node runs the retention pass (one node at a time); 1 h. */
    Builder retentionInterval(Duration retentionInterval);

    /**
     * How long after its claim a solve's answer may be reported ({@link Solves#report}), 1 s to 1
     * h; 10 min.
     */
    Builder reportWindow(Duration reportWindow);

    /**
     * Serves JobRunr's dashboard over our jobs on this port, behind basic authentication; the
     * password must have at least {@link #MIN_DASHBOARD_PASSWORD} characters.
     */
    Builder dashboard(int port, String username, String password);

    /** The address the dashboard binds; unset: loopback (127.0.0.1). */
    Builder dashboardAddress(String dashboardAddress);

    /** Where the engine reports submits, solves, errors, polls, claims and hand-offs; none. */
    Builder listener(EngineListener listener);

    /** This node's clock, the system's; the engine adds its offset to the database's clock. */
    Builder clock(Clock clock);

    /**
     * Migrates the schema and starts this node's parts.
     *
     * @throws InvalidSettingException naming the builder method of a setting that cannot work, the
     *     plan's threads included
     * @throws IllegalStateException when the database refuses
     */
    CaptchaJobs build();
  }
}
