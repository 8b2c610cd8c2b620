package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.assembly.Engine;
import com.captchajobs.core.internal.assembly.EngineAssembly;
import com.captchajobs.core.internal.enqueue.AnswerReports;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.SolveReports;
import com.captchajobs.core.internal.webhook.WebhookDeliveries;
import com.captchajobs.core.settings.SolveSettings;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CaptchaJobs.Builder}: plain settings, each starting at its default, checked by {@link
 * NodeChecks} and handed to the engine's assembly as one {@link NodeSettings} ({@link NodePlan}).
 */
final class NodeBuilder implements CaptchaJobs.Builder {

  private static final Logger log = LoggerFactory.getLogger(NodeBuilder.class);

  DataSource dataSource;
  String schema = DEFAULT_SCHEMA;
  String apiKey;
  String baseUrl = CaptchaAiClient.DEFAULT_BASE_URL;
  Duration connectTimeout = CaptchaAiClient.DEFAULT_CONNECT_TIMEOUT;
  Duration readTimeout = CaptchaAiClient.DEFAULT_READ_TIMEOUT;
  CaptchaAiClient client;
  SolveSettings settings = SolveSettings.defaults();
  // The deprecated second route of six SolveSettings: set here, they win over the same settings in
  // `settings`, whatever the order of the calls (each call WARNs).
  Integer threads;
  Integer threadsReserve;
  Boolean preflight;
  Duration maxBackoff;
  Duration reconcileInterval;
  Duration providerCheckInterval;
  final OwnJobRunr.ServerSettings.Builder server =
      new OwnJobRunr.ServerSettings.Builder()
          .name(DEFAULT_NODE_PREFIX + host() + "-" + ProcessHandle.current().pid())
          .pollInterval(DEFAULT_JOB_POLL_INTERVAL)
          .workerCount(DEFAULT_WORKER_COUNT)
          .shutdownWait(DEFAULT_SHUTDOWN_WAIT);
  String pingbackSecret;
  String pingbackUrl;
  boolean pingbackRegister = true;
  String webhookSecret;
  final Map<String, String> webhookClientSecrets = new LinkedHashMap<>();
  final Set<String> webhookAllowedHosts = new LinkedHashSet<>();
  boolean webhookIncludeToken = false;
  // Filled here and read by the deliveries as built: the settings record holds their rules.
  final WebhookDeliveries.Settings.Builder webhookDeliveries =
      new WebhookDeliveries.Settings.Builder()
          .attemptTimeout(DEFAULT_WEBHOOK_TIMEOUT)
          .retries(DEFAULT_WEBHOOK_RETRIES)
          .threads(DEFAULT_WEBHOOK_THREADS)
          .backoff(DEFAULT_WEBHOOK_BACKOFF)
          .maxBackoff(DEFAULT_WEBHOOK_MAX_BACKOFF);
  final NodeSettings.Retention.Builder retention =
      new NodeSettings.Retention.Builder()
          .age(DEFAULT_RETENTION)
          .interval(DEFAULT_RETENTION_INTERVAL);
  Duration reportWindow = DEFAULT_REPORT_WINDOW;
  Integer dashboardPort;
  String dashboardAddress;
  String dashboardUsername;
  String dashboardPassword;
  EngineListener events = EngineListener.NONE;
  Clock clock = Clock.systemUTC();

  @Override
  public CaptchaJobs.Builder settings(SolveSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    return this;
  }

  @Override
  public CaptchaJobs.Builder dataSource(DataSource dataSource) {
    this.dataSource = dataSource;
    return this;
  }

  @Override
  public CaptchaJobs.Builder schema(String schema) {
    this.schema = schema;
    return this;
  }

  @Override
  public CaptchaJobs.Builder apiKey(String apiKey) {
    this.apiKey = apiKey;
    return this;
  }

  @Override
  public CaptchaJobs.Builder baseUrl(String baseUrl) {
    this.baseUrl = baseUrl;
    return this;
  }

  @Override
  public CaptchaJobs.Builder connectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
    return this;
  }

  @Override
  public CaptchaJobs.Builder readTimeout(Duration readTimeout) {
    this.readTimeout = readTimeout;
    return this;
  }

  @Override
  public CaptchaJobs.Builder client(CaptchaAiClient client) {
    this.client = client;
    return this;
  }

  @Override
  @Deprecated
  public CaptchaJobs.Builder threads(int threads) {
    warnSecondRoute("threads(int)");
    this.threads = threads;
    return this;
  }

  @Override
  @Deprecated
  public CaptchaJobs.Builder threadsReserve(int threadsReserve) {
    warnSecondRoute("threadsReserve(int)");
    this.threadsReserve = threadsReserve;
    return this;
  }

  @Override
  @Deprecated
  public CaptchaJobs.Builder preflight(boolean preflight) {
    warnSecondRoute("preflight(boolean)");
    this.preflight = preflight;
    return this;
  }

  @Override
  @Deprecated
  public CaptchaJobs.Builder maxBackoff(Duration maxBackoff) {
    warnSecondRoute("maxBackoff(Duration)");
    this.maxBackoff = maxBackoff;
    return this;
  }

  @Override
  @Deprecated
  public CaptchaJobs.Builder reconcileInterval(Duration reconcileInterval) {
    warnSecondRoute("reconcileInterval(Duration)");
    this.reconcileInterval = reconcileInterval;
    return this;
  }

  @Override
  @Deprecated
  public CaptchaJobs.Builder providerCheckInterval(Duration providerCheckInterval) {
    warnSecondRoute("providerCheckInterval(Duration)");
    this.providerCheckInterval = providerCheckInterval;
    return this;
  }

  @Override
  public CaptchaJobs.Builder nodeName(String nodeName) {
    server.name(nodeName);
    return this;
  }

  @Override
  public CaptchaJobs.Builder jobPollInterval(Duration jobPollInterval) {
    server.pollInterval(jobPollInterval);
    return this;
  }

  @Override
  public CaptchaJobs.Builder workerCount(int workerCount) {
    server.workerCount(workerCount);
    return this;
  }

  @Override
  public CaptchaJobs.Builder shutdownWait(Duration shutdownWait) {
    server.shutdownWait(shutdownWait);
    return this;
  }

  @Override
  public CaptchaJobs.Builder pingbackSecret(String pingbackSecret) {
    this.pingbackSecret = pingbackSecret;
    return this;
  }

  @Override
  public CaptchaJobs.Builder pingbackUrl(String pingbackUrl) {
    this.pingbackUrl = pingbackUrl;
    return this;
  }

  @Override
  public CaptchaJobs.Builder pingbackRegister(boolean pingbackRegister) {
    this.pingbackRegister = pingbackRegister;
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookSecret(String webhookSecret) {
    this.webhookSecret = webhookSecret;
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookIncludeToken(boolean webhookIncludeToken) {
    this.webhookIncludeToken = webhookIncludeToken;
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookTimeout(Duration webhookTimeout) {
    webhookDeliveries.attemptTimeout(webhookTimeout);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookRetries(int webhookRetries) {
    webhookDeliveries.retries(webhookRetries);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookThreads(int webhookThreads) {
    webhookDeliveries.threads(webhookThreads);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookThreadsPerClient(Integer webhookThreadsPerClient) {
    webhookDeliveries.threadsPerClient(webhookThreadsPerClient);
    return this;
  }

  @Override
  public CaptchaJobs.Builder retention(Duration retention) {
    this.retention.age(retention);
    return this;
  }

  @Override
  public CaptchaJobs.Builder retentionInterval(Duration retentionInterval) {
    this.retention.interval(retentionInterval);
    return this;
  }

  @Override
  public CaptchaJobs.Builder reportWindow(Duration reportWindow) {
    this.reportWindow = reportWindow;
    return this;
  }

  @Override
  public CaptchaJobs.Builder dashboardAddress(String dashboardAddress) {
    this.dashboardAddress = dashboardAddress;
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookBackoff(Duration webhookBackoff) {
    webhookDeliveries.backoff(Objects.requireNonNull(webhookBackoff, "webhookBackoff"));
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookMaxBackoff(Duration webhookMaxBackoff) {
    webhookDeliveries.maxBackoff(Objects.requireNonNull(webhookMaxBackoff, "webhookMaxBackoff"));
    return this;
  }

  @Override
  public CaptchaJobs.Builder listener(EngineListener listener) {
    this.events = Objects.requireNonNull(listener, "listener");
    return this;
  }

  @Override
  public CaptchaJobs.Builder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookClientSecret(String client, String secret) {
    webhookClientSecrets.put(client, secret);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookAllowedHosts(Collection<String> hosts) {
    webhookAllowedHosts.addAll(hosts);
    return this;
  }

  @Override
  public CaptchaJobs.Builder dashboard(int port, String username, String password) {
    this.dashboardPort = port;
    this.dashboardUsername = username;
    this.dashboardPassword = password;
    return this;
  }

  @Override
  public CaptchaJobs build() {
    SolveSettings solve = NodePlan.solveSettings(this);
    NodeChecks.check(this, solve);
    Engine engine = EngineAssembly.start(NodePlan.nodeSettings(this, solve));
    return new CaptchaJobs(
        engine,
        new Solves(
            engine.enqueuer(),
            engine.repository(),
            engine.notifications(),
            engine.clock(),
            events,
            engine.operatorQueries(),
            new AnswerReports(
                new SolveReports(dataSource, engine.schema()),
                engine.parts().find(SolveJobs.class).orElseThrow(),
                reportWindow)));
  }

  /**
   * A setting of {@link SolveSettings} set on the builder itself, its second route: still applied
   * (and it still wins over {@code settings(..)}), with a WARN naming the one route to use.
   */
  private static void warnSecondRoute(String method) {
    log.warn(
        "CaptchaJobs.Builder.{} is deprecated: set it with settings(SolveSettings.builder().{}),"
            + " where every engine setting is (it still wins over settings(..) for now)",
        method,
        method);
  }

  /** Whether this node runs a worker: it was given a key or a client. */
  boolean runsWorker() {
    return client != null || apiKey != null;
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      return "localhost";
    }
  }
}
