package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.assembly.Engine;
import com.captchajobs.core.internal.assembly.EngineAssembly;
import com.captchajobs.core.internal.enqueue.AnswerReports;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.SolveReports;
import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.ProviderSettings;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The {@link CaptchaJobs.Builder}: the node's own settings, each starting at its default, and one
 * builder of each group of settings, which the shortcuts fill value by value. {@link #build} builds
 * the groups (each refuses what cannot work), checks what spans them ({@link NodeChecks}) and hands
 * the engine's assembly one {@link NodeSettings} ({@link NodePlan}).
 */
final class NodeBuilder implements CaptchaJobs.Builder {

  DataSource dataSource = null; // required
  String schema = DEFAULT_SCHEMA;
  String apiKey = null; // none: this node only enqueues
  String baseUrl = CaptchaAiClient.DEFAULT_BASE_URL;
  Duration connectTimeout = CaptchaAiClient.DEFAULT_CONNECT_TIMEOUT;
  Duration readTimeout = CaptchaAiClient.DEFAULT_READ_TIMEOUT;
  CaptchaAiClient client = null; // none: built from the key, base URL and timeouts
  SolveSettings settings = SolveSettings.defaults();
  WorkerSettings.Builder worker = WorkerSettings.builder();
  WebhookSettings.Builder webhooks = WebhookSettings.builder();
  RetentionSettings.Builder retention = RetentionSettings.builder();
  PingbackSettings.Builder pingbacks = PingbackSettings.builder();
  DashboardSettings.Builder dashboard = DashboardSettings.builder();
  boolean servesDashboard = false;
  java.util.List<ProviderSettings> providers = new java.util.ArrayList<>(); // none
  Duration reportWindow = DEFAULT_REPORT_WINDOW;
  EngineListener events = EngineListener.NONE;
  Clock clock = Clock.systemUTC();

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
  public CaptchaJobs.Builder settings(SolveSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    return this;
  }

  @Override
  public CaptchaJobs.Builder worker(WorkerSettings worker) {
    this.worker = Objects.requireNonNull(worker, "worker").toBuilder();
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhooks(WebhookSettings webhooks) {
    this.webhooks = Objects.requireNonNull(webhooks, "webhooks").toBuilder();
    return this;
  }

  @Override
  public CaptchaJobs.Builder retention(RetentionSettings retention) {
    this.retention = Objects.requireNonNull(retention, "retention").toBuilder();
    return this;
  }

  @Override
  public CaptchaJobs.Builder pingbacks(PingbackSettings pingbacks) {
    this.pingbacks = Objects.requireNonNull(pingbacks, "pingbacks").toBuilder();
    return this;
  }

  @Override
  public CaptchaJobs.Builder dashboard(DashboardSettings dashboard) {
    this.dashboard = Objects.requireNonNull(dashboard, "dashboard").toBuilder();
    this.servesDashboard = true;
    return this;
  }

  @Override
  public CaptchaJobs.Builder provider(ProviderSettings provider) {
    providers.add(Objects.requireNonNull(provider, "provider"));
    return this;
  }

  @Override
  public CaptchaJobs.Builder reportWindow(Duration reportWindow) {
    this.reportWindow = reportWindow;
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
  public CaptchaJobs.Builder nodeName(String nodeName) {
    worker.name(nodeName);
    return this;
  }

  @Override
  public CaptchaJobs.Builder jobPollInterval(Duration jobPollInterval) {
    worker.pollInterval(jobPollInterval);
    return this;
  }

  @Override
  public CaptchaJobs.Builder workerCount(int workerCount) {
    worker.workerCount(workerCount);
    return this;
  }

  @Override
  public CaptchaJobs.Builder shutdownWait(Duration shutdownWait) {
    worker.shutdownWait(shutdownWait);
    return this;
  }

  @Override
  public CaptchaJobs.Builder pingbackSecret(String pingbackSecret) {
    pingbacks.secret(pingbackSecret);
    return this;
  }

  @Override
  public CaptchaJobs.Builder pingbackUrl(String pingbackUrl) {
    pingbacks.url(pingbackUrl);
    return this;
  }

  @Override
  public CaptchaJobs.Builder pingbackRegister(boolean pingbackRegister) {
    pingbacks.register(pingbackRegister);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookSecret(String webhookSecret) {
    webhooks.secret(webhookSecret);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookClientSecret(String client, String secret) {
    webhooks.clientSecret(client, secret);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookAllowedHosts(Collection<String> hosts) {
    webhooks.allowedHosts(hosts);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookIncludeToken(boolean webhookIncludeToken) {
    webhooks.includeToken(webhookIncludeToken);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookTimeout(Duration webhookTimeout) {
    webhooks.timeout(webhookTimeout);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookRetries(int webhookRetries) {
    webhooks.retries(webhookRetries);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookThreads(int webhookThreads) {
    webhooks.threads(webhookThreads);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookThreadsPerClient(Integer webhookThreadsPerClient) {
    webhooks.threadsPerClient(webhookThreadsPerClient);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookBackoff(Duration webhookBackoff) {
    webhooks.backoff(webhookBackoff);
    return this;
  }

  @Override
  public CaptchaJobs.Builder webhookMaxBackoff(Duration webhookMaxBackoff) {
    webhooks.maxBackoff(webhookMaxBackoff);
    return this;
  }

  @Override
  public CaptchaJobs.Builder retention(Duration retention) {
    this.retention.retention(retention);
    return this;
  }

  @Override
  public CaptchaJobs.Builder retentionInterval(Duration retentionInterval) {
    this.retention.retentionInterval(retentionInterval);
    return this;
  }

  @Override
  public CaptchaJobs.Builder dashboard(int port, String username, String password) {
    dashboard.port(port).username(username).password(password);
    servesDashboard = true;
    return this;
  }

  @Override
  public CaptchaJobs.Builder dashboardAddress(String dashboardAddress) {
    dashboard.address(dashboardAddress);
    return this;
  }

  @Override
  public CaptchaJobs build() {
    NodeSettings node = NodePlan.nodeSettings(this);
    Engine engine = EngineAssembly.start(node);
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

  /** Whether this node runs a worker: it was given a key or a client. */
  boolean runsWorker() {
    return client != null || apiKey != null;
  }
}
