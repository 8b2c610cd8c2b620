package com.captchajobs.core.internal.config;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * The engine's view of {@link SolveSettings}: the settings the jobs read, taken from the public
 * type by {@link #of}. The defaults are {@link SolveSettings}' constants (the names here are
 * aliases). A new setting goes into {@link SolveSettings} only, and the code that reads it takes
 * that type; this record keeps the engine's existing constructors and calls unchanged.
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

  public static final int DEFAULT_THREADS = SolveSettings.DEFAULT_THREADS;
  public static final Duration DEFAULT_LEASE = SolveSettings.DEFAULT_LEASE;
  public static final Duration DEFAULT_SOLVE_TIMEOUT = SolveSettings.DEFAULT_SOLVE_TIMEOUT;
  public static final Duration DEFAULT_POLL_INTERVAL = SolveSettings.DEFAULT_POLL_INTERVAL;
  public static final Duration DEFAULT_POLL_LEAD = SolveSettings.DEFAULT_POLL_LEAD;
  public static final int DEFAULT_LEARN_AFTER_SOLVES = SolveSettings.DEFAULT_LEARN_AFTER_SOLVES;
  public static final Duration DEFAULT_MIN_FIRST_POLL_WAIT =
      SolveSettings.DEFAULT_MIN_FIRST_POLL_WAIT;
  public static final int DEFAULT_UNSOLVABLE_RESUBMITS = SolveSettings.DEFAULT_UNSOLVABLE_RESUBMITS;
  public static final int DEFAULT_TRANSIENT_RETRIES = SolveSettings.DEFAULT_TRANSIENT_RETRIES;
  public static final Duration DEFAULT_THREAD_WAIT = SolveSettings.DEFAULT_THREAD_WAIT;
  public static final Duration DEFAULT_STUCK_AFTER = SolveSettings.DEFAULT_STUCK_AFTER;
  public static final Duration DEFAULT_LOST_SUBMIT_HOLD = SolveSettings.DEFAULT_LOST_SUBMIT_HOLD;

  /**
   * The bound on a solve's life from its enqueue (database clock): within it transient trouble
   * leads to the next attempt, past it the solve is FAILED with {@link #DEADLINE_EXCEEDED}.
   */
  public static final Duration DEFAULT_SOLVE_DEADLINE = SolveSettings.DEFAULT_SOLVE_DEADLINE;

  /** The code of a solve failed because its deadline passed. */
  public static final String DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED";

  /** {@link SolveSettings#defaultFirstPollWaits()}. */
  public static Map<CaptchaType, Duration> defaultFirstPollWaits() {
    return SolveSettings.defaultFirstPollWaits();
  }

  /** A documented range of solve times, the prior of a type's first-poll wait. */
  public record SolveTimes(Duration min, Duration max) {}

  /** {@link com.captchajobs.core.settings.SolveTimes#documented()}, for the jobs. */
  public static Map<CaptchaType, SolveTimes> documentedSolveTimes() {
    Map<CaptchaType, SolveTimes> m = new EnumMap<>(CaptchaType.class);
    com.captchajobs.core.settings.SolveTimes.documented()
        .forEach((type, t) -> m.put(type, new SolveTimes(t.min(), t.max())));
    return m;
  }

  /** {@link SolveSettings#defaultTokenTtl()}. */
  public static Map<CaptchaType, Duration> defaultTokenTtl() {
    return SolveSettings.defaultTokenTtl();
  }

  public static EngineSettings defaults() {
    return of(SolveSettings.defaults());
  }

  /** The engine's view of {@code settings}. */
  public static EngineSettings of(SolveSettings s) {
    return new EngineSettings(
        s.threads(),
        s.lease(),
        s.solveTimeout(),
        s.pollInterval(),
        s.pollLead(),
        s.firstPollWaits(),
        s.learnAfterSolves(),
        s.minFirstPollWait(),
        s.tokenTtl(),
        s.unsolvableResubmits(),
        s.transientRetries(),
        s.threadWait(),
        s.stuckAfter(),
        s.lostSubmitHold(),
        s.solveDeadline());
  }

  public EngineSettings {
    if (solveDeadline == null) {
      solveDeadline = DEFAULT_SOLVE_DEADLINE;
    }
    firstPollWaits = Map.copyOf(complete(firstPollWaits, defaultFirstPollWaits()));
    tokenTtl = Map.copyOf(complete(tokenTtl, defaultTokenTtl()));
  }

  /** These settings with another first-poll wait for one type. */
  public EngineSettings withFirstPollWait(CaptchaType type, Duration wait) {
    Map<CaptchaType, Duration> waits = new EnumMap<>(firstPollWaits);
    waits.put(type, wait);
    return new EngineSettings(
        threads,
        lease,
        solveTimeout,
        pollInterval,
        pollLead,
        waits,
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
