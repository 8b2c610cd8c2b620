package com.captchajobs.core.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.node.EngineParts;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.slf4j.LoggerFactory;

/**
 * A worker node in plain Java inside the test JVM: {@link CaptchaJobs} with its own JobRunr server
 * on a pooled data source, and no Spring. Tests configure it with the property names operators use
 * ({@code captchaai.*}, {@code captchajobs.*}); {@link #configure} turns them into builder calls,
 * the one place in the tests that builds an engine.
 *
 * <pre>{@code
 * try (EngineNode node =
 *     EngineNode.onFreshDatabase(simulator, KEY, Map.of("captchaai.threads", "1"))) {
 *   SolveProbe solves = node.probe();
 *   solves.awaitStatus(solves.turnstile("checkout-1"), SolveStatus.SOLVED);
 * }
 * }</pre>
 */
public final class EngineNode implements AutoCloseable {

  /** Connections of a node's pool, as the worker node's tests had them. */
  public static final int POOL_SIZE = 20;

  /** Connections a test node keeps open when idle (Hikari's default is the pool's size). */
  public static final int MINIMUM_IDLE = 2;

  private static final Pattern DURATION = Pattern.compile("(-?\\d+)(ns|us|ms|s|m|h|d)?");

  private final CaptchaJobs captchaJobs;
  private final HikariDataSource dataSource;
  private final List<Runnable> restore;

  private EngineNode(CaptchaJobs captchaJobs, HikariDataSource dataSource, List<Runnable> restore) {
    this.captchaJobs = captchaJobs;
    this.dataSource = dataSource;
    this.restore = restore;
  }

  /**
   * A worker on a fresh database of the embedded PostgreSQL, calling {@code simulator} with {@code
   * apiKey}: the set-up most engine tests share.
   */
  public static EngineNode onFreshDatabase(
      CaptchaAiSimulator simulator, String apiKey, Map<String, String> properties) {
    return start(EmbeddedPostgresSupport.newDatabase(), simulator.baseUrl(), apiKey, properties);
  }

  /**
   * Like {@link #onFreshDatabase(CaptchaAiSimulator, String, Map)}, with {@code providers} beside
   * the primary (docs/providers.md).
   */
  public static EngineNode onFreshDatabase(
      CaptchaAiSimulator simulator,
      String apiKey,
      Map<String, String> properties,
      List<com.captchajobs.core.settings.ProviderSettings> providers) {
    return start(
        EmbeddedPostgresSupport.newDatabase(),
        simulator.baseUrl(),
        apiKey,
        properties,
        Clock.systemUTC(),
        providers);
  }

  /** A node on {@code jdbcUrl}; a worker unless {@code captchajobs.worker.enabled=false}. */
  public static EngineNode start(
      String jdbcUrl, String baseUrl, String apiKey, Map<String, String> properties) {
    return start(jdbcUrl, baseUrl, apiKey, properties, Clock.systemUTC());
  }

  /** Like {@link #start(String, String, String, Map)}, on the given clock of this node. */
  public static EngineNode start(
      String jdbcUrl, String baseUrl, String apiKey, Map<String, String> properties, Clock clock) {
    return start(jdbcUrl, baseUrl, apiKey, properties, clock, List.of());
  }

  private static EngineNode start(
      String jdbcUrl,
      String baseUrl,
      String apiKey,
      Map<String, String> properties,
      Clock clock,
      List<com.captchajobs.core.settings.ProviderSettings> providers) {
    Map<String, String> unread = new LinkedHashMap<>(properties);
    List<Runnable> restore = new ArrayList<>();
    HikariDataSource dataSource = new HikariDataSource();
    try {
      dataSource.setJdbcUrl(jdbcUrl);
      dataSource.setMaximumPoolSize(
          Integer.parseInt(
              take(unread, "spring.datasource.hikari.maximum-pool-size", "" + POOL_SIZE)));
      // Connections open as the node needs them rather than all at its start: each costs
      // PostgreSQL a process, and most test nodes use a few of their twenty.
      dataSource.setMinimumIdle(
          Integer.parseInt(
              take(unread, "spring.datasource.hikari.minimum-idle", "" + MINIMUM_IDLE)));
      String connectionTimeout = take(unread, "spring.datasource.hikari.connection-timeout", null);
      if (connectionTimeout != null) {
        dataSource.setConnectionTimeout(Long.parseLong(connectionTimeout));
      }
      logLevels(unread, restore);
      CaptchaJobs.Builder builder =
          CaptchaJobs.builder().dataSource(dataSource).clock(clock).baseUrl(baseUrl);
      configure(builder, apiKey, unread);
      providers.forEach(builder::provider);
      if (!unread.isEmpty()) {
        throw new IllegalArgumentException("EngineNode does not know " + unread.keySet());
      }
      return new EngineNode(builder.build(), dataSource, restore);
    } catch (RuntimeException | Error e) {
      dataSource.close();
      restore.forEach(Runnable::run);
      throw e;
    }
  }

  /**
   * The one translation from the properties of a node to the builder: what the Spring starter does
   * with them, with the same defaults. {@code captchaai.resume-window} is read by nothing, here as
   * there. Every key it reads is removed from {@code p}.
   */
  private static void configure(CaptchaJobs.Builder builder, String apiKey, Map<String, String> p) {
    SolveSettings d = SolveSettings.defaults();
    SolveSettings.Builder settings = d.toBuilder();
    for (String key : List.copyOf(p.keySet())) {
      if (key.startsWith("captchaai.first-poll-wait.")) {
        settings.firstPollWait(type(key), duration(take(p, key, null)));
      } else if (key.startsWith("captchaai.token-ttl.")) {
        settings.tokenTtl(type(key), duration(take(p, key, null)));
      }
    }
    take(p, "captchaai.resume-window", null);
    builder.settings(
        settings
            .threads(Integer.parseInt(take(p, "captchaai.threads", "" + d.threads())))
            .lease(duration(p, "captchaai.lease", d.lease()))
            .solveTimeout(duration(p, "captchaai.solve-timeout", d.solveTimeout()))
            .pollInterval(duration(p, "captchaai.poll-interval", d.pollInterval()))
            .pollLead(duration(p, "captchaai.poll-lead", d.pollLead()))
            .learnAfterSolves(
                Integer.parseInt(
                    take(p, "captchaai.learn-after-solves", "" + d.learnAfterSolves())))
            .minFirstPollWait(duration(p, "captchaai.min-first-poll-wait", d.minFirstPollWait()))
            .unsolvableResubmits(
                Integer.parseInt(
                    take(p, "captchaai.unsolvable-resubmits", "" + d.unsolvableResubmits())))
            .transientRetries(
                Integer.parseInt(take(p, "captchaai.transient-retries", "" + d.transientRetries())))
            .threadWait(duration(p, "captchaai.thread-wait", d.threadWait()))
            .stuckAfter(duration(p, "captchaai.stuck-after", d.stuckAfter()))
            .lostSubmitHold(duration(p, "captchaai.lost-submit-hold", d.lostSubmitHold()))
            .solveDeadline(duration(p, "captchaai.solve-deadline", d.solveDeadline()))
            .threadsReserve(Integer.parseInt(take(p, "captchaai.threads-reserve", "0")))
            .preflight(Boolean.parseBoolean(take(p, "captchaai.preflight", "true")))
            .maxBackoff(duration(p, "captchaai.max-backoff", SolveSettings.DEFAULT_MAX_BACKOFF))
            .reconcileInterval(
                duration(
                    p, "captchaai.reconcile-interval", SolveSettings.DEFAULT_RECONCILE_INTERVAL))
            .providerCheckInterval(
                duration(
                    p,
                    "captchaai.provider-check-interval",
                    SolveSettings.DEFAULT_PROVIDER_CHECK_INTERVAL))
            .build());
    builder.schema(take(p, "captchajobs.schema", Schema.DEFAULT));
    String pingbackSecret = take(p, "captchaai.pingback-secret", null);
    if (pingbackSecret != null) {
      builder.pingbackSecret(pingbackSecret);
    }
    String pingbackUrl = take(p, "captchaai.pingback-url", null);
    boolean pingbackRegister = Boolean.parseBoolean(take(p, "captchaai.pingback-register", "true"));
    String nodeName = take(p, "captchajobs.worker.name", null);
    String webhookSecret = take(p, "captchajobs.webhook.secret", null);
    String allowedHosts = take(p, "captchajobs.webhook.allowed-hosts", null);
    String threadsPerClient = take(p, "captchajobs.webhook.threads-per-client", null);
    // read whether or not the node runs a worker: a node without one ignores them, as on Spring
    builder
        .connectTimeout(
            duration(p, "captchaai.connect-timeout", CaptchaAiClient.DEFAULT_CONNECT_TIMEOUT))
        .readTimeout(duration(p, "captchaai.read-timeout", CaptchaAiClient.DEFAULT_READ_TIMEOUT))
        .jobPollInterval(
            duration(p, "captchajobs.worker.poll-interval", WorkerSettings.DEFAULT_POLL_INTERVAL))
        .workerCount(
            Integer.parseInt(
                take(
                    p,
                    "captchajobs.worker.worker-count",
                    "" + WorkerSettings.DEFAULT_WORKER_COUNT)))
        .shutdownWait(
            duration(p, "captchajobs.worker.shutdown-wait", WorkerSettings.DEFAULT_SHUTDOWN_WAIT))
        .webhookIncludeToken(
            Boolean.parseBoolean(take(p, "captchajobs.webhook.include-token", "false")))
        .webhookTimeout(duration(p, "captchajobs.webhook.timeout", WebhookSettings.DEFAULT_TIMEOUT))
        .webhookRetries(
            Integer.parseInt(
                take(p, "captchajobs.webhook.retries", "" + WebhookSettings.DEFAULT_RETRIES)))
        .webhookThreads(
            Integer.parseInt(
                take(p, "captchajobs.webhook.threads", "" + WebhookSettings.DEFAULT_THREADS)))
        .webhookThreadsPerClient(
            threadsPerClient == null ? null : Integer.valueOf(threadsPerClient))
        .webhookBackoff(duration(p, "captchajobs.webhook.backoff", WebhookSettings.DEFAULT_BACKOFF))
        .webhookMaxBackoff(
            duration(p, "captchajobs.webhook.max-backoff", WebhookSettings.DEFAULT_MAX_BACKOFF))
        .retention(duration(p, "captchajobs.retention", RetentionSettings.DEFAULT_RETENTION))
        .retentionInterval(
            duration(
                p, "captchajobs.retention-interval", RetentionSettings.DEFAULT_RETENTION_INTERVAL))
        .reportWindow(
            duration(p, "captchajobs.report-window", CaptchaJobs.Builder.DEFAULT_REPORT_WINDOW));
    if (allowedHosts != null) {
      builder.webhookAllowedHosts(Arrays.asList(allowedHosts.split("\\s*,\\s*")));
    }
    boolean worker = Boolean.parseBoolean(take(p, "captchajobs.worker.enabled", "true"));
    if (worker) {
      builder.apiKey(apiKey);
      if (pingbackUrl != null && !pingbackUrl.isBlank()) {
        builder.pingbackUrl(pingbackUrl).pingbackRegister(pingbackRegister);
      }
      if (webhookSecret != null && !webhookSecret.isBlank()) {
        builder.webhookSecret(webhookSecret);
      }
      if (nodeName != null && !nodeName.isBlank()) {
        builder.nodeName(nodeName);
      }
    }
  }

  /** {@code logging.level.<logger>=<level>}, for the node's life. */
  private static void logLevels(Map<String, String> p, List<Runnable> restore) {
    for (String key : List.copyOf(p.keySet())) {
      if (key.startsWith("logging.level.")) {
        Logger logger = (Logger) LoggerFactory.getLogger(key.substring("logging.level.".length()));
        Level before = logger.getLevel();
        logger.setLevel(Level.toLevel(take(p, key, null)));
        restore.add(() -> logger.setLevel(before));
      }
    }
  }

  private static CaptchaType type(String key) {
    return CaptchaType.valueOf(key.substring(key.lastIndexOf('.') + 1));
  }

  private static String take(Map<String, String> p, String key, String otherwise) {
    String value = p.remove(key);
    return value == null ? otherwise : value;
  }

  private static Duration duration(Map<String, String> p, String key, Duration otherwise) {
    String value = take(p, key, null);
    return value == null ? otherwise : duration(value);
  }

  /** Spring's simple form ({@code 500ms}, {@code 15s}, {@code 10m}; milliseconds bare) or ISO. */
  static Duration duration(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      return Duration.parse(text.trim());
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "ms" : m.group(2);
    return switch (unit) {
      case "ns" -> Duration.ofNanos(n);
      case "us" -> Duration.ofNanos(n * 1000);
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }

  /**
   * This node's CaptchaJobs, its data source, or else a part of its engine by type (repository,
   * gate, breaker, jobs, JobRunr storage, ...): internal types, for tests that look inside.
   */
  public <T> T part(Class<T> type) {
    if (type.isInstance(captchaJobs)) {
      return type.cast(captchaJobs);
    }
    if (type.isInstance(dataSource)) {
      return type.cast(dataSource);
    }
    return EngineParts.find(captchaJobs, type)
        .orElseThrow(() -> new IllegalArgumentException("no engine part " + type.getName()));
  }

  public CaptchaJobs captchaJobs() {
    return captchaJobs;
  }

  public DataSource dataSource() {
    return dataSource;
  }

  /** Enqueue, await and read rows on this node. */
  public SolveProbe probe() {
    return new SolveProbe(part(SolveEnqueuer.class), part(SolveRepository.class), dataSource);
  }

  /** Stops the engine, then closes the pool. */
  @Override
  public void close() {
    try {
      captchaJobs.close();
    } finally {
      dataSource.close();
      restore.forEach(Runnable::run);
    }
  }
}
