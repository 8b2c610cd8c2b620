package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.config.EngineEvents;
import com.captchajobs.core.internal.config.EngineSettings;
import com.captchajobs.core.internal.engine.Carrier;
import com.captchajobs.core.internal.engine.PollJob;
import com.captchajobs.core.internal.engine.SlotHandoff;
import com.captchajobs.core.internal.engine.SolveJobs;
import com.captchajobs.core.internal.engine.SubmitJob;
import com.captchajobs.core.internal.engine.TaskOutcomes;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.jobrunr.Dispatcher;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.notify.DedicatedConnections;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PingbackUrls;
import com.captchajobs.core.internal.provider.PlanCheck;
import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.internal.retry.PermanentErrorRetryFilter;
import com.captchajobs.core.internal.store.Schema;
import com.captchajobs.core.internal.store.SolveInserts;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.time.DatabaseClock;
import com.captchajobs.core.internal.time.FirstPollWaits;
import com.captchajobs.core.internal.upkeep.NodeLiveness;
import com.captchajobs.core.internal.upkeep.Reconciler;
import com.captchajobs.core.internal.upkeep.Retention;
import com.captchajobs.core.internal.upkeep.WorkerStartup;
import com.captchajobs.core.internal.webhook.WebhookDeliveries;
import com.captchajobs.core.internal.webhook.WebhookEgress;
import com.captchajobs.core.internal.webhook.WebhookJob;
import com.captchajobs.core.internal.webhook.WebhookRetryFilter;
import com.captchajobs.core.internal.webhook.WebhookSigner;
import com.captchajobs.core.pingback.PingbackReceiver;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import javax.sql.DataSource;
import okhttp3.Dns;
import okhttp3.OkHttpClient;
import org.jobrunr.server.BackgroundJobServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CaptchaJobs in plain Java: give it a PostgreSQL {@link DataSource} and get {@link Solves}. With a
 * CaptchaAI key it also runs a worker on this node: the submit and poll jobs on CaptchaJobs' own
 * JobRunr server, whose tables live in their own schema beside anything else in the database.
 *
 * <pre>{@code
 * try (CaptchaJobs captchaJobs = CaptchaJobs.builder()
 *     .dataSource(dataSource)
 *     .apiKey(System.getenv("CAPTCHAAI_API_KEY")) // omit on nodes that only enqueue
 *     .threads(5)                                  // the plan's threads, for the whole fleet
 *     .build()) {
 *   Solves solves = captchaJobs.solves();
 *   UUID id = solves.enqueue(SolveRequest.turnstile("signup-42", sitekey, pageUrl));
 *   ClaimedToken token = solves.await(id, Duration.ofMinutes(3)).thenApply(s -> solves.claim(id)).join();
 * }
 * }</pre>
 *
 * {@link #build} migrates the schema, starts listening for outcomes and, on a worker, checks the
 * plan and starts the server; {@link #close} stops all of it. Immutable once built.
 */
public final class CaptchaJobs implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CaptchaJobs.class);

  private final Schema schema;
  private final Solves solves;
  private final Worker worker;
  private final Deque<AutoCloseable> parts;
  private final List<Object> engine;

  private CaptchaJobs(
      Schema schema,
      Solves solves,
      Worker worker,
      Deque<AutoCloseable> parts,
      List<Object> engine) {
    this.schema = schema;
    this.solves = solves;
    this.worker = worker;
    this.parts = parts;
    this.engine = List.copyOf(engine);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The Java API: enqueue, status, await, claim, solveNow. */
  public Solves solves() {
    return solves;
  }

  /** Whether this node runs a worker (it was given an API key). */
  public boolean runsWorker() {
    return worker != null;
  }

  /** The schema that holds every CaptchaJobs table. */
  public String schema() {
    return schema.name();
  }

  /**
   * The worker's parts, for tests that look inside. Not API: the types are internal and may change;
   * {@link #operations()} is the public way to the breaker, the plan and the gate.
   */
  public Optional<Worker> worker() {
    return Optional.ofNullable(worker);
  }

  /**
   * CaptchaJobs' own JobRunr jobs by state ({@code AWAITING}, {@code SCHEDULED}, {@code ENQUEUED},
   * {@code PROCESSING}, {@code FAILED}, {@code SUCCEEDED}, {@code DELETED}), never a host's; one
   * query per call, so callers that poll it should cache it.
   */
  public Map<String, Long> jobCounts() {
    return part(org.jobrunr.storage.StorageProvider.class)
        .map(OwnJobRunr::jobCounts)
        .orElse(Map.of());
  }

  // --- public seams (issue 21): what the starter, the nodes and tools use instead of part() ---

  /** What operators read and do: solves, batches, requeues, the gate, breakers, this worker. */
  public Operations operations() {
    OperatorQueries queries = part(OperatorQueries.class).orElseThrow();
    return new Operations(
        queries,
        part(SolveJobs.class).orElseThrow(),
        this::jobCounts,
        worker == null
            ? null
            : new Operations.LocalWorker(
                queries, worker.breaker(), worker.gate(), worker.planCheck()));
  }

  /**
   * Where an answer the provider pushed is handed over ({@code /captchaai/pingback}); present on a
   * node given {@code captchaai.pingback-secret}.
   */
  public Optional<PingbackReceiver> pingbacks() {
    return part(Pingbacks.class).map(RealPingbackReceiver::new);
  }

  // --- end of the public seams ---

  /**
   * One of the engine's parts by type (repository, enqueuer, gate, breaker, JobRunr storage, ...),
   * for tools and tests that look inside. Not API: the types are internal and may change.
   */
  public <T> Optional<T> part(Class<T> type) {
    return engine.stream().filter(type::isInstance).map(type::cast).findFirst();
  }

  /** Stops the dashboard, the server, the listener and the repair pass, in reverse start order. */
  @Override
  public void close() {
    synchronized (parts) {
      while (!parts.isEmpty()) {
        try {
          parts.pop().close();
        } catch (Exception e) {
          log.warn("Could not stop a CaptchaJobs part: {}", e.toString());
        }
      }
    }
  }

  /**
   * The worker's internal parts.
   *
   * @param gate the fleet gate
   * @param breaker the credential breaker of this key
   * @param planCheck the last threadsinfo answer
   * @param server our JobRunr server
   */
  public record Worker(
      FleetGate gate, Breaker breaker, PlanCheck planCheck, BackgroundJobServer server) {}

  /** Every setting with its default; only the data source is required. */
  public static final class Builder {

    /** Default name prefix of a worker node. */
    public static final String DEFAULT_NODE_PREFIX = "captchajobs-";

    public static final Duration DEFAULT_JOB_POLL_INTERVAL = Duration.ofSeconds(5);

    /** Poll jobs wait in their worker thread for their intended instant, so threads are cheap. */
    public static final int DEFAULT_WORKER_COUNT = 64;

    public static final Duration DEFAULT_SHUTDOWN_WAIT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_RECONCILE_INTERVAL = Duration.ofSeconds(2);
    public static final Duration DEFAULT_PROVIDER_CHECK_INTERVAL = Duration.ofSeconds(30);
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(60);
    public static final Duration DEFAULT_WEBHOOK_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_WEBHOOK_RETRIES = 8;
    public static final int DEFAULT_WEBHOOK_THREADS = 4;
    public static final Duration DEFAULT_WEBHOOK_BACKOFF = Duration.ofSeconds(10);
    public static final Duration DEFAULT_WEBHOOK_MAX_BACKOFF = Duration.ofMinutes(10);
    public static final int DEFAULT_DASHBOARD_PORT = 8000;

    private DataSource dataSource;
    private String schema = Schema.DEFAULT;
    private String apiKey;
    private String baseUrl = CaptchaAiClient.DEFAULT_BASE_URL;
    private Duration connectTimeout = CaptchaAiClient.DEFAULT_CONNECT_TIMEOUT;
    private Duration readTimeout = CaptchaAiClient.DEFAULT_READ_TIMEOUT;
    private CaptchaAiClient client;
    private EngineSettings settings = EngineSettings.defaults();
    private Integer threads;
    private int threadsReserve = 0;
    private boolean preflight = true;
    private String nodeName = DEFAULT_NODE_PREFIX + host() + "-" + ProcessHandle.current().pid();
    private Duration jobPollInterval = DEFAULT_JOB_POLL_INTERVAL;
    private int workerCount = DEFAULT_WORKER_COUNT;
    private Duration shutdownWait = DEFAULT_SHUTDOWN_WAIT;
    private Duration reconcileInterval = DEFAULT_RECONCILE_INTERVAL;
    private Duration providerCheckInterval = DEFAULT_PROVIDER_CHECK_INTERVAL;
    private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
    private String webhookSecret;
    private boolean webhookIncludeToken = false;
    private Duration webhookTimeout = DEFAULT_WEBHOOK_TIMEOUT;
    private int webhookRetries = DEFAULT_WEBHOOK_RETRIES;
    private int webhookThreads = DEFAULT_WEBHOOK_THREADS;
    private Integer webhookThreadsPerClient;
    private Duration webhookBackoff = DEFAULT_WEBHOOK_BACKOFF;
    private Duration webhookMaxBackoff = DEFAULT_WEBHOOK_MAX_BACKOFF;
    private final Set<String> webhookAllowedHosts = new LinkedHashSet<>();
    private final Map<String, String> webhookClientSecrets = new LinkedHashMap<>();
    private Duration retention = Retention.DEFAULT_RETENTION;
    private Duration retentionInterval = Duration.ofHours(1);
    private Integer dashboardPort;
    private String dashboardAddress;
    private String dashboardUsername;
    private String dashboardPassword;
    private EngineEvents events = EngineEvents.NONE;
    private Clock clock = Clock.systemUTC();
    private String pingbackUrl;
    private String pingbackSecret;

    private Builder() {}

    /**
     * Where the provider can reach an app node's {@code /captchaai/pingback} ({@code
     * captchaai.pingback-url}), e.g. {@code https://solves.example.com/captchaai/pingback}: a
     * worker then sends every in.php with a per-solve pingback URL under it, and polls only as the
     * fallback for a push that got lost. Requires {@link #pingbackSecret}. Unset, answers are
     * polled only.
     */
    public Builder pingbackUrl(String pingbackUrl) {
      this.pingbackUrl = pingbackUrl;
      return this;
    }

    /**
     * The fleet's key of pingback signatures ({@code captchaai.pingback-secret}, at least 32
     * characters, the same on every node): workers sign their pingback URLs with it, and a node
     * given it accepts pushes whose signature matches. Never logged.
     */
    public Builder pingbackSecret(String pingbackSecret) {
      this.pingbackSecret = pingbackSecret;
      return this;
    }

    /** The PostgreSQL database shared by every node of the fleet. Required. */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = dataSource;
      return this;
    }

    /** Schema of every CaptchaJobs table, JobRunr's included; created when missing. */
    public Builder schema(String schema) {
      this.schema = schema;
      return this;
    }

    /** CaptchaAI API key. Set, this node runs a worker; unset, it only enqueues. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
      return this;
    }

    public Builder readTimeout(Duration readTimeout) {
      this.readTimeout = readTimeout;
      return this;
    }

    /** A ready client instead of key, base URL and timeouts. */
    public Builder client(CaptchaAiClient client) {
      this.client = client;
      return this;
    }

    /** The engine's timing and limits (internal type: the starter maps {@code captchaai.*}). */
    public Builder settings(EngineSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /**
     * Solves in flight across the whole fleet: the plan's threads. Overrides the settings' value.
     */
    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    /** Plan threads kept free for other users of the same key; checked at worker start. */
    public Builder threadsReserve(int threadsReserve) {
      this.threadsReserve = threadsReserve;
      return this;
    }

    /** Whether a worker refuses to start when the plan has fewer threads than the cap. */
    public Builder preflight(boolean preflight) {
      this.preflight = preflight;
      return this;
    }

    /** Name of this node in the gate and in the dashboard's server list. */
    public Builder nodeName(String nodeName) {
      this.nodeName = nodeName;
      return this;
    }

    /** How often our JobRunr server looks for due jobs; JobRunr's minimum on SQL is 5 s. */
    public Builder jobPollInterval(Duration jobPollInterval) {
      this.jobPollInterval = jobPollInterval;
      return this;
    }

    /** Threads of our JobRunr server on this node. */
    public Builder workerCount(int workerCount) {
      this.workerCount = workerCount;
      return this;
    }

    /** How long a stopping server waits for running jobs before interrupting them. */
    public Builder shutdownWait(Duration shutdownWait) {
      this.shutdownWait = shutdownWait;
      return this;
    }

    public Builder reconcileInterval(Duration reconcileInterval) {
      this.reconcileInterval = reconcileInterval;
      return this;
    }

    public Builder providerCheckInterval(Duration providerCheckInterval) {
      this.providerCheckInterval = providerCheckInterval;
      return this;
    }

    /** Upper bound of one backoff wait after a transient failure. */
    public Builder maxBackoff(Duration maxBackoff) {
      this.maxBackoff = maxBackoff;
      return this;
    }

    /**
     * Node secret of webhook signatures ({@code captchajobs.webhook.secret}): it signs the Java
     * API's webhooks, and each API client without a secret of its own signs with a key derived from
     * it and the client's name ({@code WebhookSigner.derivedKey}). Without it only clients with
     * their own secret get webhooks.
     */
    public Builder webhookSecret(String webhookSecret) {
      this.webhookSecret = webhookSecret;
      return this;
    }

    /**
     * Origins a webhook may reach although they resolve to a loopback, private, link-local or other
     * non-public address ({@code captchajobs.webhook.allowed-hosts}): {@code host} is https on 443,
     * {@code host:port} https on that port, {@code http://host:port} plain http there.
     */
    public Builder webhookAllowedHosts(Collection<String> hosts) {
      hosts.forEach(h -> webhookAllowedHosts.add(h));
      return this;
    }

    /**
     * The secret that signs the webhooks of one API client's solves ({@code
     * captchajobs.api.clients.<name>.webhook-secret}); the others use a key derived from {@link
     * #webhookSecret}.
     */
    public Builder webhookClientSecret(String client, String secret) {
      webhookClientSecrets.put(client, secret);
      return this;
    }

    /**
     * Age after which final solves, poll timings and hand-off rows are deleted by the worker nodes
     * ({@code captchajobs.retention}, 7 days by default).
     */
    public Builder retention(Duration retention) {
      this.retention = retention;
      return this;
    }

    /** How often a worker node runs the retention pass (one node at a time; 1 hour). */
    public Builder retentionInterval(Duration retentionInterval) {
      this.retentionInterval = retentionInterval;
      return this;
    }

    public Builder webhookIncludeToken(boolean webhookIncludeToken) {
      this.webhookIncludeToken = webhookIncludeToken;
      return this;
    }

    public Builder webhookTimeout(Duration webhookTimeout) {
      this.webhookTimeout = webhookTimeout;
      return this;
    }

    /** Retries of a delivery that got no 2xx answer ({@code captchajobs.webhook.retries}). */
    public Builder webhookRetries(int webhookRetries) {
      this.webhookRetries = webhookRetries;
      return this;
    }

    /**
     * Deliveries in flight on this node: the threads of the deliveries' own JobRunr server, apart
     * from the solve threads ({@code captchajobs.webhook.threads}).
     */
    public Builder webhookThreads(int webhookThreads) {
      this.webhookThreads = webhookThreads;
      return this;
    }

    /**
     * Deliveries of one API client in flight on one worker node ({@code
     * captchajobs.webhook.threads-per-client}); by default half of {@link #webhookThreads}, at
     * least 1. The other threads stay free for the other clients while one client's receivers hang.
     */
    public Builder webhookThreadsPerClient(Integer webhookThreadsPerClient) {
      this.webhookThreadsPerClient = webhookThreadsPerClient;
      return this;
    }

    private int webhookThreadsPerClient() {
      return webhookThreadsPerClient != null
          ? webhookThreadsPerClient
          : WebhookDeliveries.Settings.defaultThreadsPerClient(webhookThreads);
    }

    /**
     * Wait before the first retry of a delivery, doubled for each further retry ({@code
     * captchajobs.webhook.backoff}); apart from the solve retries' backoff.
     */
    public Builder webhookBackoff(Duration webhookBackoff) {
      this.webhookBackoff = Objects.requireNonNull(webhookBackoff, "webhookBackoff");
      return this;
    }

    /**
     * Upper bound of one wait between delivery retries ({@code captchajobs.webhook.max-backoff}).
     */
    public Builder webhookMaxBackoff(Duration webhookMaxBackoff) {
      this.webhookMaxBackoff = Objects.requireNonNull(webhookMaxBackoff, "webhookMaxBackoff");
      return this;
    }

    /**
     * The address the dashboard binds ({@code captchajobs.dashboard.address}); unset: every
     * interface.
     */
    public Builder dashboardAddress(String dashboardAddress) {
      this.dashboardAddress = dashboardAddress;
      return this;
    }

    /**
     * Serves the JobRunr dashboard over our jobs on this port, behind basic authentication; it
     * refuses cross-site requests that could change something.
     */
    public Builder dashboard(int port, String username, String password) {
      this.dashboardPort = port;
      this.dashboardUsername = username;
      this.dashboardPassword = password;
      return this;
    }

    /** Where the engine reports submits, solves, errors, polls, claims and hand-offs (metrics). */
    public Builder listener(EngineListener listener) {
      this.events = EngineEvents.of(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * This node's clock (default the system's). The engine never trusts it alone: it runs on the
     * database's clock, this clock plus its offset to the database's, measured at start and every
     * 15 s, so that nodes whose clocks disagree still agree on every expiry, lease and deadline.
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Migrates the schema and starts this node's parts.
     *
     * @throws IllegalArgumentException naming the setting when one is invalid
     * @throws IllegalStateException when the database or the plan refuses
     */
    public CaptchaJobs build() {
      validate();
      Schema named = Schema.named(schema);
      EngineSettings engine = threads == null ? settings : settings.withThreads(threads);
      Deque<AutoCloseable> parts = new ArrayDeque<>();
      try {
        named.migrate(dataSource);
        DatabaseClock clock = DatabaseClock.start(dataSource, this.clock);
        parts.push(clock);
        // Released after our JobRunr server stopped (parts close in reverse order): a node that is
        // still finishing its jobs must not look dead to the others.
        NodeLiveness liveness = null;
        if (client != null || apiKey != null) {
          liveness =
              new NodeLiveness(
                  DedicatedConnections.of(dataSource, "captchajobs-liveness")::open, clock);
          parts.push(liveness);
        }
        OwnJobRunr jobRunr = OwnJobRunr.open(dataSource, named);
        parts.push(jobRunr);
        SolveRepository repository = new SolveRepository(dataSource, named);
        SolveJobs jobs =
            new SolveJobs(jobRunr.scheduler(), clock, engine.pollLead(), engine.transientRetries());
        SolveNotifications notifications =
            SolveNotifications.forDataSource(dataSource, repository).start();
        parts.push(notifications);
        OperatorQueries operatorQueries = new OperatorQueries(dataSource, named);
        Dispatcher dispatcher = new Dispatcher(dataSource, nodeName);
        jobs.tellReady(dispatcher);
        parts.push(dispatcher);
        Solves solves =
            new Solves(
                new SolveEnqueuer(
                    repository,
                    new SolveInserts(dataSource, named),
                    jobs,
                    nodeName,
                    engine.lease()),
                repository,
                notifications,
                clock,
                events,
                operatorQueries);
        List<Object> inside =
            new ArrayList<>(
                List.of(
                    clock,
                    repository,
                    jobs,
                    notifications,
                    solves.enqueuer(),
                    jobRunr.scheduler(),
                    jobRunr.storage(),
                    operatorQueries));
        Worker worker = null;
        if (pingbackSecret != null && client == null && apiKey == null) {
          // A node that only receives pushes: it frees and hands on slots like a worker would.
          FleetGate gate = new FleetGate(dataSource, named, engine.lease(), nodeName);
          SolveTransitions transitions = new SolveTransitions(dataSource, named);
          TaskOutcomes outcomes =
              new TaskOutcomes(
                  repository,
                  transitions,
                  new SlotHandoff(gate, jobs, transitions),
                  null,
                  null,
                  jobs,
                  engine,
                  events,
                  clock);
          Pingbacks pingbacks =
              new Pingbacks(new PingbackUrls(null, pingbackSecret), repository, outcomes, clock);
          inside.add(pingbacks);
        }
        if (client != null || apiKey != null) {
          worker =
              startWorker(
                  named,
                  engine,
                  jobRunr,
                  repository,
                  jobs,
                  notifications,
                  dispatcher,
                  clock,
                  liveness,
                  parts,
                  inside);
        }
        if (dashboardPort != null) {
          jobRunr.startDashboard(
              dashboardAddress, dashboardPort, dashboardUsername, dashboardPassword);
        }
        return new CaptchaJobs(named, solves, worker, parts, inside);
      } catch (RuntimeException e) {
        new CaptchaJobs(named, null, null, parts, List.of()).close();
        throw e;
      }
    }

    private Worker startWorker(
        Schema named,
        EngineSettings engine,
        OwnJobRunr jobRunr,
        SolveRepository repository,
        SolveJobs jobs,
        SolveNotifications notifications,
        Dispatcher dispatcher,
        Clock clock,
        NodeLiveness liveness,
        Deque<AutoCloseable> parts,
        List<Object> inside) {
      CaptchaAiClient captchaAi =
          client != null
              ? client
              : CaptchaAiClient.builder()
                  .apiKey(apiKey)
                  .baseUrl(baseUrl)
                  .connectTimeout(connectTimeout)
                  .readTimeout(readTimeout)
                  .build();
      Breaker breaker = new Breaker(dataSource, named, captchaAi.keyFingerprint());
      FleetGate gate = new FleetGate(dataSource, named, engine.lease(), nodeName);
      SolveTransitions transitions = new SolveTransitions(dataSource, named);
      SlotHandoff handoff = new SlotHandoff(gate, jobs, transitions);
      FirstPollWaits waits = new FirstPollWaits(engine, repository::recentSolved, clock);
      PlanCheck planCheck = new PlanCheck(captchaAi, breaker, clock, providerCheckInterval);
      TaskOutcomes outcomes =
          new TaskOutcomes(
              repository, transitions, handoff, breaker, planCheck, jobs, engine, events, clock);
      PollJob pollJob =
          new PollJob(repository, transitions, outcomes, captchaAi, jobs, engine, events, clock);
      SubmitJob submitJob =
          new SubmitJob(
              repository,
              transitions,
              gate,
              handoff,
              outcomes,
              breaker,
              captchaAi,
              jobs,
              waits,
              engine,
              events,
              clock);
      Carrier carrier = new Carrier(submitJob, pollJob, repository, transitions, jobs, clock);
      submitJob.carryOnWith(carrier);
      pollJob.carryOnWith(carrier);
      if (pingbackSecret != null) {
        PingbackUrls urls = new PingbackUrls(pingbackUrl, pingbackSecret);
        Pingbacks pingbacks = new Pingbacks(urls, repository, outcomes, clock);
        submitJob.pushTo(urls);
        pollJob.pushOn(urls.sendsUrls());
        inside.add(pingbacks);
        if (urls.sendsUrls()) {
          log.info("Answers are pushed to {} (polling as the fallback)", pingbackUrl);
        }
      }
      Reconciler reconciler =
          new Reconciler(
              repository, gate, handoff, jobs, engine.stuckAfter(), engine.solveDeadline(), clock);
      WebhookJob webhookJob =
          new WebhookJob(
              repository,
              webhookHttp(),
              webhookSigners(),
              new WebhookEgress(webhookAllowedHosts, Dns.SYSTEM),
              webhookIncludeToken,
              clock);
      WorkerStartup startup =
          new WorkerStartup(
              new WorkerStartup.Settings(
                  engine.threads(),
                  threadsReserve,
                  preflight,
                  reconcileInterval,
                  providerCheckInterval),
              gate,
              planCheck,
              breaker,
              reconciler);
      startup.prepare();
      BackgroundJobServer server =
          jobRunr.startServer(
              new OwnJobRunr.ServerSettings(nodeName, jobPollInterval, workerCount, shutdownWait),
              Map.of(SubmitJob.class, submitJob, PollJob.class, pollJob),
              List.of(
                  new PermanentErrorRetryFilter(
                      engine.transientRetries(), maxBackoff.toSeconds())));
      gate.serverId(server.getId());
      reconciler.watchNodes(liveness, jobRunr.storage(), engine.lostSubmitHold());
      liveness.hold(server.getId(), reconciler::observeServers);
      reconciler.confirmPhantomsWith(planCheck::read);
      dispatcher.fetchInto(server, notifications);
      WebhookDeliveries deliveries = null;
      if (webhookSecret == null && webhookClientSecrets.isEmpty()) {
        log.info("No webhook secret set: solves with a callbackUrl get no webhook");
      } else {
        deliveries =
            WebhookDeliveries.start(
                dataSource,
                named,
                nodeName,
                jobPollInterval,
                shutdownWait,
                new WebhookDeliveries.Settings(
                    webhookThreads,
                    webhookRetries,
                    webhookBackoff,
                    webhookMaxBackoff,
                    webhookThreadsPerClient(),
                    webhookTimeout),
                webhookJob,
                repository,
                clock);
        parts.push(deliveries);
        parts.push(notifications.addListener(deliveries.trigger()));
        inside.add(deliveries);
      }
      startup.startBackground(
          server::isRunning,
          () -> {
            // Its jobs died with the stopped server: resume their solves now, not after JobRunr's
            // orphan timeout.
            Reconciler.Taken taken = reconciler.takeBackJobsOf(java.util.Set.of(server.getId()));
            if (taken.jobs() > 0) {
              log.info(
                  "{} job(s) the stopped server was running taken back, {} solve(s) resumed",
                  taken.jobs(),
                  taken.resumed());
            }
            server.start();
          });
      parts.push(startup);
      Retention retentionPass =
          new Retention(dataSource, named, retention).schedule(retentionInterval);
      parts.push(retentionPass);
      inside.addAll(
          List.of(
              captchaAi,
              breaker,
              gate,
              handoff,
              waits,
              planCheck,
              submitJob,
              pollJob,
              reconciler,
              liveness,
              webhookJob,
              retentionPass,
              server));
      log.info(
          "CaptchaJobs worker {} started: fleet cap {} threads, schema {}",
          nodeName,
          engine.threads(),
          named);
      return new Worker(gate, breaker, planCheck, server);
    }

    private Function<String, WebhookSigner> webhookSigners() {
      return WebhookSigner.perClient(webhookSecret, webhookClientSecrets);
    }

    private OkHttpClient webhookHttp() {
      return new OkHttpClient.Builder()
          .connectTimeout(webhookTimeout)
          .readTimeout(webhookTimeout)
          .callTimeout(webhookTimeout.multipliedBy(2))
          .followRedirects(false)
          .followSslRedirects(false)
          .build();
    }

    private void validate() {
      require(dataSource != null, "dataSource is required");
      require(
          apiKey == null || !apiKey.isBlank(),
          "apiKey must not be blank (leave it unset on nodes that only enqueue)");
      require(
          jobPollInterval.compareTo(Duration.ofSeconds(5)) >= 0,
          "captchajobs.worker.poll-interval must be at least 5s (JobRunr's minimum on SQL storage)");
      require(workerCount >= 1, "captchajobs.worker.worker-count must be at least 1");
      require(nodeName != null && !nodeName.isBlank(), "captchajobs.worker.name must not be empty");
      require(threads == null || threads >= 1, "captchaai.threads must be at least 1");
      require(webhookRetries >= 0, "captchajobs.webhook.retries must not be negative");
      require(webhookThreads >= 1, "captchajobs.webhook.threads must be at least 1");
      require(
          webhookBackoff.compareTo(Duration.ofSeconds(1)) >= 0,
          "captchajobs.webhook.backoff must be at least 1s");
      require(
          webhookMaxBackoff.compareTo(webhookBackoff) >= 0,
          "captchajobs.webhook.max-backoff must not be shorter than captchajobs.webhook.backoff");
      require(
          retention.compareTo(Duration.ofHours(1)) >= 0,
          "captchajobs.retention must be at least 1h");
      require(
          retentionInterval.compareTo(Duration.ofSeconds(1)) >= 0,
          "captchajobs.retention-interval must be at least 1s");
      require(
          webhookThreadsPerClient == null
              || (webhookThreadsPerClient >= 1 && webhookThreadsPerClient <= webhookThreads),
          "captchajobs.webhook.threads-per-client must be between 1 and"
              + " captchajobs.webhook.threads");
      new WebhookEgress(webhookAllowedHosts, Dns.SYSTEM); // names the key of an entry it refuses
      if (client != null || apiKey != null) {
        retentionOutlastsWhatItDeletes();
      }
      require(
          pingbackUrl == null || pingbackSecret != null,
          "captchaai.pingback-secret is required with captchaai.pingback-url");
      require(
          pingbackSecret == null || pingbackSecret.length() >= PingbackUrls.MIN_SECRET_CHARS,
          "captchaai.pingback-secret must be at least "
              + PingbackUrls.MIN_SECRET_CHARS
              + " characters");
      require(
          pingbackUrl == null
              || (pingbackUrl.startsWith("http://") || pingbackUrl.startsWith("https://"))
                  && !pingbackUrl.contains("?")
                  && !pingbackUrl.contains("#"),
          "captchaai.pingback-url must be an absolute http(s) URL without query or fragment");
      if (dashboardPort != null) {
        require(
            dashboardUsername != null
                && !dashboardUsername.isBlank()
                && dashboardPassword != null
                && !dashboardPassword.isBlank(),
            "captchajobs.dashboard.username and captchajobs.dashboard.password are required for the dashboard");
      }
    }

    /**
     * Retention deletes solves (with their tokens) on worker nodes: a token still valid or a
     * delivery still being retried must not lose its row.
     */
    private void retentionOutlastsWhatItDeletes() {
      EngineSettings engine = threads == null ? settings : settings.withThreads(threads);
      for (Map.Entry<CaptchaType, Duration> ttl : engine.tokenTtl().entrySet()) {
        require(
            retention.compareTo(ttl.getValue()) > 0,
            "captchajobs.retention ("
                + retention
                + ") must be longer than captchaai.token-ttl."
                + ttl.getKey()
                + " ("
                + ttl.getValue()
                + ")");
      }
      if (webhookSecret != null || !webhookClientSecrets.isEmpty()) {
        Duration span =
            WebhookRetryFilter.longestRetrySpan(
                webhookRetries, webhookBackoff, webhookMaxBackoff, webhookTimeout, jobPollInterval);
        require(
            retention.compareTo(span) > 0,
            "captchajobs.retention ("
                + retention
                + ") must be longer than the webhook retry span ("
                + span
                + " at most, from captchajobs.webhook.retries, captchajobs.webhook.backoff,"
                + " captchajobs.webhook.max-backoff and captchajobs.webhook.timeout)");
      }
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(message);
      }
    }

    private static String host() {
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (Exception e) {
        return "localhost";
      }
    }
  }
}
