package com.captchajobs.spring.boot;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Settings of the CaptchaAI side, under {@code captchaai.*}: the one place they are bound. Defaults
 * are the library's own constants ({@link CaptchaAiClient}, {@link SolveSettings}), the engine's
 * settings map into one {@link SolveSettings} ({@link #toSettings()}), and {@link #validate()}
 * rejects bad values at startup with a message naming the key.
 */
@ConfigurationProperties(CaptchaAiProperties.PREFIX)
public class CaptchaAiProperties {

  /** The prefix of these properties. */
  public static final String PREFIX = "captchaai";

  /**
   * CaptchaAI API key (32 characters), used by workers only. Also read from the CAPTCHAAI_API_KEY
   * environment variable; pass it through the environment, never on a command line.
   */
  private String apiKey;

  /** Base URL of the CaptchaAI API. */
  private String baseUrl = CaptchaAiClient.DEFAULT_BASE_URL;

  /** Connect timeout of calls to CaptchaAI. */
  private Duration connectTimeout = CaptchaAiClient.DEFAULT_CONNECT_TIMEOUT;

  /** Read timeout of calls to CaptchaAI. */
  private Duration readTimeout = CaptchaAiClient.DEFAULT_READ_TIMEOUT;

  /** Solves in flight across the whole fleet: the plan's thread count (minus the reserve). */
  private int threads = SolveSettings.DEFAULT_THREADS;

  /** Plan threads kept free for other clients of the same key; checked at worker start. */
  private int threadsReserve = SolveSettings.DEFAULT_THREADS_RESERVE;

  /** Whether a worker refuses to start when the plan has fewer threads than the cap needs. */
  private boolean preflight = SolveSettings.DEFAULT_PREFLIGHT;

  /** How long a gate slot is held at most: the provider has no cancel call. */
  private Duration lease = SolveSettings.DEFAULT_LEASE;

  /** Time after submission after which a solve without an answer fails with TIMEOUT. */
  private Duration solveTimeout = SolveSettings.DEFAULT_SOLVE_TIMEOUT;

  /** Interval between two res.php polls of one task; at least 5s. */
  private Duration pollInterval = SolveSettings.DEFAULT_POLL_INTERVAL;

  /**
   * How much earlier than its intended instant a poll job is scheduled; it waits the rest itself.
   */
  private Duration pollLead = SolveSettings.DEFAULT_POLL_LEAD;

  /**
   * Wait before the first poll, per type, before solves of it were seen (the prior); by default the
   * 20th percentile of the type's documented solve-time range.
   */
  private Map<CaptchaType, Duration> firstPollWait =
      new EnumMap<>(SolveSettings.defaultFirstPollWaits());

  /**
   * How many solves the prior of a type's first-poll wait counts as; every solve seen shrinks the
   * prior's weight ({@code (k × prior + n × learned) / (k + n)}).
   */
  private int learnAfterSolves = SolveSettings.DEFAULT_LEARN_AFTER_SOLVES;

  /** Lower bound of a learned first-poll wait. */
  private Duration minFirstPollWait = SolveSettings.DEFAULT_MIN_FIRST_POLL_WAIT;

  /** How long a stored token may be claimed, per type: less than the provider's validity. */
  private Map<CaptchaType, Duration> tokenTtl = new EnumMap<>(SolveSettings.defaultTokenTtl());

  /** Fresh submissions after ERROR_CAPTCHA_UNSOLVABLE before the solve fails. */
  private int unsolvableResubmits = SolveSettings.DEFAULT_UNSOLVABLE_RESUBMITS;

  /** JobRunr retries of a job after a transient failure. */
  private int transientRetries = SolveSettings.DEFAULT_TRANSIENT_RETRIES;

  /** Upper bound of one backoff wait after a transient failure. */
  private Duration maxBackoff = SolveSettings.DEFAULT_MAX_BACKOFF;

  /** Wait before a solve submits again after the provider said no thread was free. */
  private Duration threadWait = SolveSettings.DEFAULT_THREAD_WAIT;

  /** A queued or submitted solve unchanged this long and without a live job gets a new one. */
  private Duration stuckAfter = SolveSettings.DEFAULT_STUCK_AFTER;

  /**
   * How long a gate slot stays taken after an in.php call whose answer was lost: the task may
   * exist.
   */
  private Duration lostSubmitHold = SolveSettings.DEFAULT_LOST_SUBMIT_HOLD;

  /**
   * The bound on a solve's life, counted from its enqueue on the database clock. Within it a
   * provider outage, timeouts or a stale task lead to the next attempt; past it the solve is FAILED
   * with the code {@code DEADLINE_EXCEEDED} (class {@code deadline}).
   */
  private Duration solveDeadline = SolveSettings.DEFAULT_SOLVE_DEADLINE;

  /** Interval of the repair pass (leaked slots, expired tokens, stuck solves, waiting solves). */
  private Duration reconcileInterval = SolveSettings.DEFAULT_RECONCILE_INTERVAL;

  /** Interval of the threadsinfo check published as metrics. */
  private Duration providerCheckInterval = SolveSettings.DEFAULT_PROVIDER_CHECK_INTERVAL;

  /**
   * Public base URL where the provider reaches an app node's pingback endpoint, ending in {@code
   * /captchaai/pingback} (for example {@code https://solves.example.com/captchaai/pingback}). Set
   * on workers: every in.php then asks for the answer to be pushed, and polling is only the
   * fallback. Requires {@code captchaai.pingback-secret}.
   */
  private String pingbackUrl;

  /**
   * Key of the pingback URLs' signatures, the same on every node (at least 32 characters). A node
   * given it accepts pushes on {@code /captchaai/pingback/**}; a worker with {@code
   * captchaai.pingback-url} signs its URLs with it. Never logged.
   */
  private String pingbackSecret;

  /**
   * Whether a worker with {@code captchaai.pingback-url} registers the URL's host with the provider
   * at startup ({@code res.php?action=add_pingback}, then {@code get_pingback}). Whatever the
   * provider answers is logged once and never stops the node.
   */
  private boolean pingbackRegister = PingbackSettings.DEFAULT_REGISTER;

  /** Rejects bad values naming the key and the limit. */
  public void validate() {
    toSettings();
    require(
        baseUrl != null && (baseUrl.startsWith("http://") || baseUrl.startsWith("https://")),
        "captchaai.base-url must be an absolute http(s) URL");
    toPingbacks();
  }

  /**
   * These properties as {@code environment} sets them, for code that runs before the application's
   * beans exist (an {@code EnvironmentPostProcessor}, a banner); the defaults when a value does not
   * convert.
   */
  public static CaptchaAiProperties of(Environment environment) {
    try {
      return Binder.get(environment)
          .bind(PREFIX, CaptchaAiProperties.class)
          .orElseGet(CaptchaAiProperties::new);
    } catch (BindException e) {
      // a value that does not convert: the node's start refuses it, naming the key, as usual
      return new CaptchaAiProperties();
    }
  }

  /**
   * The pushes of answers, every one of their settings mapped here and nowhere else.
   *
   * @throws IllegalStateException naming the key of a value that cannot work
   */
  public PingbackSettings toPingbacks() {
    return PropertyNames.build(
        () ->
            PingbackSettings.builder()
                .url(pingbackUrl)
                .secret(pingbackSecret)
                .register(pingbackRegister)
                .build());
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalStateException(message);
    }
  }

  /**
   * The engine's settings, every one of them mapped here and nowhere else.
   *
   * @throws IllegalStateException naming the key of a value that cannot work
   */
  public SolveSettings toSettings() {
    SolveSettings.Builder settings =
        SolveSettings.builder()
            .threads(threads)
            .threadsReserve(threadsReserve)
            .preflight(preflight)
            .lease(lease)
            .solveTimeout(solveTimeout)
            .solveDeadline(solveDeadline)
            .pollInterval(pollInterval)
            .pollLead(pollLead)
            .learnAfterSolves(learnAfterSolves)
            .minFirstPollWait(minFirstPollWait)
            .unsolvableResubmits(unsolvableResubmits)
            .transientRetries(transientRetries)
            .maxBackoff(maxBackoff)
            .threadWait(threadWait)
            .stuckAfter(stuckAfter)
            .lostSubmitHold(lostSubmitHold)
            .reconcileInterval(reconcileInterval)
            .providerCheckInterval(providerCheckInterval);
    firstPollWait.forEach(settings::firstPollWait);
    tokenTtl.forEach(settings::tokenTtl);
    return PropertyNames.build(settings::build);
  }

  @Override
  public String toString() {
    return "CaptchaAiProperties[baseUrl="
        + baseUrl
        + ", threads="
        + threads
        + ", apiKey="
        + (apiKey == null ? "unset" : "***")
        + ", pingbackUrl="
        + (pingbackUrl == null ? "unset" : pingbackUrl)
        + ", pingbackSecret="
        + (hasPingbackSecret() ? "***" : "unset")
        + "]";
  }

  /** The shortest {@code captchaai.pingback-secret} accepted. */
  public static final int MIN_PINGBACK_SECRET_CHARS = PingbackSettings.MIN_SECRET_CHARS;

  /** Whether a pingback secret is set. */
  public boolean hasPingbackSecret() {
    return pingbackSecret != null && !pingbackSecret.isEmpty();
  }

  public String getPingbackUrl() {
    return pingbackUrl;
  }

  public boolean isPingbackRegister() {
    return pingbackRegister;
  }

  public void setPingbackRegister(boolean pingbackRegister) {
    this.pingbackRegister = pingbackRegister;
  }

  public void setPingbackUrl(String pingbackUrl) {
    this.pingbackUrl = pingbackUrl;
  }

  public String getPingbackSecret() {
    return pingbackSecret;
  }

  public void setPingbackSecret(String pingbackSecret) {
    this.pingbackSecret = pingbackSecret;
  }

  public String getApiKey() {
    return apiKey;
  }

  public void setApiKey(String apiKey) {
    this.apiKey = apiKey;
  }

  public String getBaseUrl() {
    return baseUrl;
  }

  public void setBaseUrl(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
  }

  public Duration getReadTimeout() {
    return readTimeout;
  }

  public void setReadTimeout(Duration readTimeout) {
    this.readTimeout = readTimeout;
  }

  public int getThreads() {
    return threads;
  }

  public void setThreads(int threads) {
    this.threads = threads;
  }

  public int getThreadsReserve() {
    return threadsReserve;
  }

  public void setThreadsReserve(int threadsReserve) {
    this.threadsReserve = threadsReserve;
  }

  public boolean isPreflight() {
    return preflight;
  }

  public void setPreflight(boolean preflight) {
    this.preflight = preflight;
  }

  public Duration getLease() {
    return lease;
  }

  public void setLease(Duration lease) {
    this.lease = lease;
  }

  public Duration getSolveTimeout() {
    return solveTimeout;
  }

  public void setSolveTimeout(Duration solveTimeout) {
    this.solveTimeout = solveTimeout;
  }

  public Duration getPollInterval() {
    return pollInterval;
  }

  public void setPollInterval(Duration pollInterval) {
    this.pollInterval = pollInterval;
  }

  public Duration getPollLead() {
    return pollLead;
  }

  public void setPollLead(Duration pollLead) {
    this.pollLead = pollLead;
  }

  public Map<CaptchaType, Duration> getFirstPollWait() {
    return firstPollWait;
  }

  public void setFirstPollWait(Map<CaptchaType, Duration> firstPollWait) {
    this.firstPollWait = firstPollWait;
  }

  public int getLearnAfterSolves() {
    return learnAfterSolves;
  }

  public void setLearnAfterSolves(int learnAfterSolves) {
    this.learnAfterSolves = learnAfterSolves;
  }

  public Duration getMinFirstPollWait() {
    return minFirstPollWait;
  }

  public void setMinFirstPollWait(Duration minFirstPollWait) {
    this.minFirstPollWait = minFirstPollWait;
  }

  public Map<CaptchaType, Duration> getTokenTtl() {
    return tokenTtl;
  }

  public void setTokenTtl(Map<CaptchaType, Duration> tokenTtl) {
    this.tokenTtl = tokenTtl;
  }

  public int getUnsolvableResubmits() {
    return unsolvableResubmits;
  }

  public void setUnsolvableResubmits(int unsolvableResubmits) {
    this.unsolvableResubmits = unsolvableResubmits;
  }

  public int getTransientRetries() {
    return transientRetries;
  }

  public void setTransientRetries(int transientRetries) {
    this.transientRetries = transientRetries;
  }

  public Duration getMaxBackoff() {
    return maxBackoff;
  }

  public void setMaxBackoff(Duration maxBackoff) {
    this.maxBackoff = maxBackoff;
  }

  public Duration getThreadWait() {
    return threadWait;
  }

  public void setThreadWait(Duration threadWait) {
    this.threadWait = threadWait;
  }

  public Duration getStuckAfter() {
    return stuckAfter;
  }

  public void setStuckAfter(Duration stuckAfter) {
    this.stuckAfter = stuckAfter;
  }

  public Duration getLostSubmitHold() {
    return lostSubmitHold;
  }

  public void setLostSubmitHold(Duration lostSubmitHold) {
    this.lostSubmitHold = lostSubmitHold;
  }

  public Duration getSolveDeadline() {
    return solveDeadline;
  }

  public void setSolveDeadline(Duration solveDeadline) {
    this.solveDeadline = solveDeadline;
  }

  public Duration getReconcileInterval() {
    return reconcileInterval;
  }

  public void setReconcileInterval(Duration reconcileInterval) {
    this.reconcileInterval = reconcileInterval;
  }

  public Duration getProviderCheckInterval() {
    return providerCheckInterval;
  }

  public void setProviderCheckInterval(Duration providerCheckInterval) {
    this.providerCheckInterval = providerCheckInterval;
  }
}
