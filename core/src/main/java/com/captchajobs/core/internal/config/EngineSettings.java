package com.captchajobs.core.internal.config;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.time.FirstPollWaits;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * The engine's timing and limits. Every default is a constant here; {@code captchaai.*} properties
 * start from these constants and a test checks that they match.
 */
public record EngineSettings(
    int threads,
    Duration lease,
    Duration solveTimeout,
    Duration pollInterval,
    Duration pollLead,
    Map<CaptchaType, Duration> firstPollWaits,
    int learnAfterSolves,
    Duration minFirstPollWait,
    Map<CaptchaType, Duration> tokenTtl,
    int unsolvableResubmits,
    int transientRetries,
    Duration threadWait,
    Duration stuckAfter,
    Duration lostSubmitHold,
    Duration solveDeadline) {

  public static final int DEFAULT_THREADS = 5;
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(180);
  public static final Duration DEFAULT_SOLVE_TIMEOUT = Duration.ofSeconds(120);
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);
  public static final Duration DEFAULT_POLL_LEAD = Duration.ofSeconds(6);

  /** How many solves the documented prior of a type's first-poll wait counts as. */
  public static final int DEFAULT_LEARN_AFTER_SOLVES = 5;

  public static final Duration DEFAULT_MIN_FIRST_POLL_WAIT = Duration.ofSeconds(5);
  public static final int DEFAULT_UNSOLVABLE_RESUBMITS = 1;
  public static final int DEFAULT_TRANSIENT_RETRIES = 4;
  public static final Duration DEFAULT_THREAD_WAIT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_STUCK_AFTER = Duration.ofSeconds(10);
  public static final Duration DEFAULT_LOST_SUBMIT_HOLD = Duration.ofSeconds(60);

  /**
   * The bound on a solve's life from its enqueue (database clock): within it transient trouble
   * leads to the next attempt, past it the solve is FAILED with {@link #DEADLINE_EXCEEDED}.
   */
  public static final Duration DEFAULT_SOLVE_DEADLINE = Duration.ofMinutes(10);

  /** The code of a solve failed because its deadline passed. */
  public static final String DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED";

  /**
   * The first-poll waits a type starts from before any solve of it was seen: the 20th percentile of
   * its documented solve-time range ({@link #documentedSolveTimes()}), so that about one task in
   * five is ready at its first poll from the start (Turnstile 3–9 s: 4.2 s). The minimum first-poll
   * wait still applies.
   */
  public static Map<CaptchaType, Duration> defaultFirstPollWaits() {
    Map<CaptchaType, Duration> m = new EnumMap<>(CaptchaType.class);
    documentedSolveTimes()
        .forEach(
            (type, range) -> {
              long min = range.min().toMillis();
              long max = range.max().toMillis();
              m.put(type, Duration.ofMillis(min + Math.round(0.2 * (max - min))));
            });
    return m;
  }

  /** A documented range of solve times, the prior of a type's first-poll wait. */
  public record SolveTimes(Duration min, Duration max) {}

  /**
   * The solve times CaptchaAI publishes per type (see "Timings" in docs/captchaai-contract.md);
   * {@link FirstPollWaits} starts from them. The simulator's default solve times are the same table
   * by in.php method; {@code SimulatorSolveTimesMatchTheEngineTest} keeps the two equal.
   */
  public static Map<CaptchaType, SolveTimes> documentedSolveTimes() {
    Map<CaptchaType, SolveTimes> m = new EnumMap<>(CaptchaType.class);
    m.put(CaptchaType.RECAPTCHA_V2, times(12, 40));
    m.put(CaptchaType.RECAPTCHA_V3, times(3, 8));
    m.put(CaptchaType.RECAPTCHA_ENTERPRISE, times(15, 45));
    m.put(CaptchaType.TURNSTILE, times(3, 9));
    m.put(CaptchaType.CLOUDFLARE_CHALLENGE, times(10, 25));
    m.put(CaptchaType.IMAGE, times(1, 4));
    m.put(CaptchaType.GEETEST, times(5, 15));
    m.put(CaptchaType.GEETEST_V4, times(5, 15));
    return m;
  }

  private static SolveTimes times(long minSeconds, long maxSeconds) {
    return new SolveTimes(Duration.ofSeconds(minSeconds), Duration.ofSeconds(maxSeconds));
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

  public static EngineSettings defaults() {
    return new EngineSettings(
        DEFAULT_THREADS,
        DEFAULT_LEASE,
        DEFAULT_SOLVE_TIMEOUT,
        DEFAULT_POLL_INTERVAL,
        DEFAULT_POLL_LEAD,
        defaultFirstPollWaits(),
        DEFAULT_LEARN_AFTER_SOLVES,
        DEFAULT_MIN_FIRST_POLL_WAIT,
        defaultTokenTtl(),
        DEFAULT_UNSOLVABLE_RESUBMITS,
        DEFAULT_TRANSIENT_RETRIES,
        DEFAULT_THREAD_WAIT,
        DEFAULT_STUCK_AFTER,
        DEFAULT_LOST_SUBMIT_HOLD,
        DEFAULT_SOLVE_DEADLINE);
  }

  public EngineSettings {
    if (solveDeadline == null) {
      solveDeadline = DEFAULT_SOLVE_DEADLINE;
    }
    firstPollWaits = Map.copyOf(complete(firstPollWaits, defaultFirstPollWaits()));
    tokenTtl = Map.copyOf(complete(tokenTtl, defaultTokenTtl()));
  }

  /** These settings with another fleet cap. */
  public EngineSettings withThreads(int threads) {
    return copy(threads, firstPollWaits, solveDeadline);
  }

  /** These settings with another first-poll wait for one type. */
  public EngineSettings withFirstPollWait(CaptchaType type, Duration wait) {
    Map<CaptchaType, Duration> waits = new EnumMap<>(firstPollWaits);
    waits.put(type, wait);
    return copy(threads, waits, solveDeadline);
  }

  /** These settings with another solve deadline. */
  public EngineSettings withSolveDeadline(Duration solveDeadline) {
    return copy(threads, firstPollWaits, solveDeadline);
  }

  /** The one copy of the canonical constructor call behind every {@code with...} method. */
  private EngineSettings copy(
      int threads, Map<CaptchaType, Duration> firstPollWaits, Duration solveDeadline) {
    return new EngineSettings(
        threads,
        lease,
        solveTimeout,
        pollInterval,
        pollLead,
        firstPollWaits,
        learnAfterSolves,
        minFirstPollWait,
        tokenTtl,
        unsolvableResubmits,
        transientRetries,
        threadWait,
        stuckAfter,
        lostSubmitHold,
        solveDeadline);
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
}
