package com.captchajobs.core.settings;

import com.captchajobs.core.client.CaptchaType;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * How the fleet runs solves against CaptchaAI: its thread cap, leases, timeouts, poll rhythm, token
 * lifetimes and retries. Every default is a {@code DEFAULT_} constant here, the one place of them:
 * the Spring Boot starter's {@code captchaai.*} properties start from these constants and map into
 * this type. Built with {@link #builder()}, whose methods describe the components; it refuses
 * settings that cannot work ({@link InvalidSettingException}, naming the method).
 *
 * <pre>{@code
 * SolveSettings settings = SolveSettings.builder()
 *     .threads(10)
 *     .firstPollWait(CaptchaType.TURNSTILE, Duration.ofSeconds(3))
 *     .build();
 * CaptchaJobs.builder().dataSource(dataSource).apiKey(key).settings(settings).build();
 * }</pre>
 */
public record SolveSettings(
    int threads,
    int threadsReserve,
    boolean preflight,
    Duration lease,
    Duration solveTimeout,
    Duration solveDeadline,
    Duration pollInterval,
    Duration pollLead,
    Map<CaptchaType, Duration> firstPollWaits,
    int learnAfterSolves,
    Duration minFirstPollWait,
    Map<CaptchaType, Duration> tokenTtl,
    int unsolvableResubmits,
    int transientRetries,
    Duration maxBackoff,
    Duration threadWait,
    Duration stuckAfter,
    Duration lostSubmitHold,
    Duration reconcileInterval,
    Duration providerCheckInterval) {

  public static final int DEFAULT_THREADS = 5;
  public static final int DEFAULT_THREADS_RESERVE = 0;
  public static final boolean DEFAULT_PREFLIGHT = true;
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(180);
  public static final Duration DEFAULT_SOLVE_TIMEOUT = Duration.ofSeconds(120);
  public static final Duration DEFAULT_SOLVE_DEADLINE = Duration.ofMinutes(10);
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);
  public static final Duration DEFAULT_POLL_LEAD = Duration.ofSeconds(1);
  public static final int DEFAULT_LEARN_AFTER_SOLVES = 5;
  public static final Duration DEFAULT_MIN_FIRST_POLL_WAIT = Duration.ofSeconds(5);
  public static final int DEFAULT_UNSOLVABLE_RESUBMITS = 1;
  public static final int DEFAULT_TRANSIENT_RETRIES = 4;
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(60);
  public static final Duration DEFAULT_THREAD_WAIT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_STUCK_AFTER = Duration.ofSeconds(10);
  public static final Duration DEFAULT_LOST_SUBMIT_HOLD = Duration.ofSeconds(60);
  public static final Duration DEFAULT_RECONCILE_INTERVAL = Duration.ofSeconds(2);
  public static final Duration DEFAULT_PROVIDER_CHECK_INTERVAL = Duration.ofSeconds(30);

  /**
   * The first-poll waits a type starts from before any solve of it was seen: the 20th percentile of
   * its documented solve-time range ({@link SolveTimes#documented()}), so that about one task in
   * five is ready at its first poll from the start (Turnstile 3–9 s: 4.2 s).
   */
  public static Map<CaptchaType, Duration> defaultFirstPollWaits() {
    Map<CaptchaType, Duration> m = new EnumMap<>(CaptchaType.class);
    SolveTimes.documented().forEach((type, times) -> m.put(type, times.at(0.2)));
    return m;
  }

  /** How long a stored token may be handed out: shorter than the provider's validity window. */
  public static Map<CaptchaType, Duration> defaultTokenTtl() {
    Map<CaptchaType, Duration> m = new EnumMap<>(CaptchaType.class);
    m.put(CaptchaType.RECAPTCHA_V2, Duration.ofSeconds(90)); // Google: 120 s
    m.put(CaptchaType.RECAPTCHA_V3, Duration.ofSeconds(90));
    m.put(CaptchaType.RECAPTCHA_ENTERPRISE, Duration.ofSeconds(90));
    m.put(CaptchaType.TURNSTILE, Duration.ofSeconds(270)); // Cloudflare: 300 s
    m.put(CaptchaType.CLOUDFLARE_CHALLENGE, Duration.ofSeconds(600));
    m.put(CaptchaType.IMAGE, Duration.ofSeconds(300));
    m.put(CaptchaType.GEETEST, Duration.ofSeconds(90));
    m.put(CaptchaType.GEETEST_V4, Duration.ofSeconds(90));
    return m;
  }

  /** Every setting at its default. */
  public static SolveSettings defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these settings. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Settings that can work; a type left out of a map gets its default.
   *
   * @throws InvalidSettingException naming the builder method of a setting that cannot work
   */
  public SolveSettings {
    firstPollWaits = Map.copyOf(complete(firstPollWaits, defaultFirstPollWaits()));
    tokenTtl = Map.copyOf(complete(tokenTtl, defaultTokenTtl()));
    SolveSettingsRules.check(
        threads,
        threadsReserve,
        lease,
        solveTimeout,
        solveDeadline,
        pollInterval,
        pollLead,
        learnAfterSolves,
        minFirstPollWait,
        unsolvableResubmits,
        transientRetries);
    SolveSettingsRules.checkPerType(firstPollWaits, tokenTtl);
  }

  public Duration firstPollWait(CaptchaType type) {
    return firstPollWaits.get(type);
  }

  public Duration tokenTtl(CaptchaType type) {
    return tokenTtl.get(type);
  }

  private static Map<CaptchaType, Duration> complete(
      Map<CaptchaType, Duration> given, Map<CaptchaType, Duration> defaults) {
    Map<CaptchaType, Duration> m = new EnumMap<>(CaptchaType.class);
    m.putAll(defaults);
    if (given != null) {
      m.putAll(given);
    }
    return m;
  }

  /** Every setting of a {@link SolveSettings}, each starting at its default. */
  public static final class Builder {

    private int threads = DEFAULT_THREADS;
    private int threadsReserve = DEFAULT_THREADS_RESERVE;
    private boolean preflight = DEFAULT_PREFLIGHT;
    private Duration lease = DEFAULT_LEASE;
    private Duration solveTimeout = DEFAULT_SOLVE_TIMEOUT;
    private Duration solveDeadline = DEFAULT_SOLVE_DEADLINE;
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;
    private Duration pollLead = DEFAULT_POLL_LEAD;
    private final Map<CaptchaType, Duration> firstPollWaits = defaultFirstPollWaits();
    private int learnAfterSolves = DEFAULT_LEARN_AFTER_SOLVES;
    private Duration minFirstPollWait = DEFAULT_MIN_FIRST_POLL_WAIT;
    private final Map<CaptchaType, Duration> tokenTtl = defaultTokenTtl();
    private int unsolvableResubmits = DEFAULT_UNSOLVABLE_RESUBMITS;
    private int transientRetries = DEFAULT_TRANSIENT_RETRIES;
    private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
    private Duration threadWait = DEFAULT_THREAD_WAIT;
    private Duration stuckAfter = DEFAULT_STUCK_AFTER;
    private Duration lostSubmitHold = DEFAULT_LOST_SUBMIT_HOLD;
    private Duration reconcileInterval = DEFAULT_RECONCILE_INTERVAL;
    private Duration providerCheckInterval = DEFAULT_PROVIDER_CHECK_INTERVAL;

    private Builder() {}

    private Builder(SolveSettings s) {
      threads = s.threads;
      threadsReserve = s.threadsReserve;
      preflight = s.preflight;
      lease = s.lease;
      solveTimeout = s.solveTimeout;
      solveDeadline = s.solveDeadline;
      pollInterval = s.pollInterval;
      pollLead = s.pollLead;
      firstPollWaits.putAll(s.firstPollWaits);
      learnAfterSolves = s.learnAfterSolves;
      minFirstPollWait = s.minFirstPollWait;
      tokenTtl.putAll(s.tokenTtl);
      unsolvableResubmits = s.unsolvableResubmits;
      transientRetries = s.transientRetries;
      maxBackoff = s.maxBackoff;
      threadWait = s.threadWait;
      stuckAfter = s.stuckAfter;
      lostSubmitHold = s.lostSubmitHold;
      reconcileInterval = s.reconcileInterval;
      providerCheckInterval = s.providerCheckInterval;
    }

    /** Solves in flight across the whole fleet: the plan's threads minus the reserve; 5. */
    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    /** Plan threads kept free for other users of the same key, checked at worker start; 0. */
    public Builder threadsReserve(int threadsReserve) {
      this.threadsReserve = threadsReserve;
      return this;
    }

    /** Whether a worker refuses to start when the plan has fewer threads than the cap; true. */
    public Builder preflight(boolean preflight) {
      this.preflight = preflight;
      return this;
    }

    /** How long a gate slot is held at most (the provider has no cancel call); 180 s. */
    public Builder lease(Duration lease) {
      this.lease = lease;
      return this;
    }

    /** Without an answer this long after its submission, a task is given up; 120 s. */
    public Builder solveTimeout(Duration solveTimeout) {
      this.solveTimeout = solveTimeout;
      return this;
    }

    /**
     * The bound on a solve's life from its enqueue, on the database clock: past it the solve is
     * FAILED with {@code DEADLINE_EXCEEDED}; 10 min.
     */
    public Builder solveDeadline(Duration solveDeadline) {
      this.solveDeadline = solveDeadline;
      return this;
    }

    /** Interval between two res.php polls of one task, at least 5 s; 5 s. */
    public Builder pollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
      return this;
    }

    /** How much earlier than its instant a poll job is scheduled (it waits the rest); 1 s. */
    public Builder pollLead(Duration pollLead) {
      this.pollLead = pollLead;
      return this;
    }

    /**
     * The wait before the first poll of a type before solves of it were seen (the prior); by
     * default {@link #defaultFirstPollWaits()}.
     */
    public Builder firstPollWait(CaptchaType type, Duration wait) {
      firstPollWaits.put(type, wait);
      return this;
    }

    /** How many solves the prior of a first-poll wait counts as; 5. */
    public Builder learnAfterSolves(int learnAfterSolves) {
      this.learnAfterSolves = learnAfterSolves;
      return this;
    }

    /** Lower bound of a learned first-poll wait; 5 s. */
    public Builder minFirstPollWait(Duration minFirstPollWait) {
      this.minFirstPollWait = minFirstPollWait;
      return this;
    }

    /** How long a token of a type may be claimed; by default {@link #defaultTokenTtl()}. */
    public Builder tokenTtl(CaptchaType type, Duration ttl) {
      tokenTtl.put(type, ttl);
      return this;
    }

    /** Fresh submissions after ERROR_CAPTCHA_UNSOLVABLE before the solve fails; 1. */
    public Builder unsolvableResubmits(int unsolvableResubmits) {
      this.unsolvableResubmits = unsolvableResubmits;
      return this;
    }

    /** JobRunr retries of a job after a transient failure; 4. */
    public Builder transientRetries(int transientRetries) {
      this.transientRetries = transientRetries;
      return this;
    }

    /** Upper bound of one backoff wait after a transient failure; 60 s. */
    public Builder maxBackoff(Duration maxBackoff) {
      this.maxBackoff = maxBackoff;
      return this;
    }

    /** Wait before submitting again after the provider said no thread was free; 5 s. */
    public Builder threadWait(Duration threadWait) {
      this.threadWait = threadWait;
      return this;
    }

    /** A queued or submitted solve unchanged this long without a live job gets one; 10 s. */
    public Builder stuckAfter(Duration stuckAfter) {
      this.stuckAfter = stuckAfter;
      return this;
    }

    /** How long a slot stays taken after an in.php call whose answer was lost; 60 s. */
    public Builder lostSubmitHold(Duration lostSubmitHold) {
      this.lostSubmitHold = lostSubmitHold;
      return this;
    }

    /** Interval of the repair pass (one node at a time runs it); 2 s. */
    public Builder reconcileInterval(Duration reconcileInterval) {
      this.reconcileInterval = reconcileInterval;
      return this;
    }

    /** Interval of the threadsinfo check published as metrics; 30 s. */
    public Builder providerCheckInterval(Duration providerCheckInterval) {
      this.providerCheckInterval = providerCheckInterval;
      return this;
    }

    /**
     * The settings.
     *
     * @throws InvalidSettingException naming the builder method of a setting that cannot work
     */
    public SolveSettings build() {
      return new SolveSettings(
          threads,
          threadsReserve,
          preflight,
          lease,
          solveTimeout,
          solveDeadline,
          pollInterval,
          pollLead,
          firstPollWaits,
          learnAfterSolves,
          minFirstPollWait,
          tokenTtl,
          unsolvableResubmits,
          transientRetries,
          maxBackoff,
          threadWait,
          stuckAfter,
          lostSubmitHold,
          reconcileInterval,
          providerCheckInterval);
    }
  }
}
