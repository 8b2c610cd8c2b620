package com.captchajobs.core.internal.time;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.stats.Percentiles;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

/**
 * When to poll a task first (see "First poll" in docs/architecture.md). A type starts from a prior,
 * its configured first-poll wait, by default drawn from its documented solve-time range ({@link
 * SolveSettings#defaultFirstPollWaits()}: the 20th percentile of that range). Observed solves take
 * over as they arrive: the wait is the blend {@code (k × prior + n × learned) / (k + n)} of the
 * prior, which counts as {@code k = captchaai.learn-after-solves} solves, and the wait learned from
 * the {@code n} solves seen (at most the last 50), so the prior's weight shrinks with every solve
 * instead of holding for a fixed count. The learned wait aims at about one task in five being ready
 * at its first poll: few tasks then wait long for their first poll and few first polls are wasted.
 * Never below the minimum wait; later polls keep their 5 s rhythm.
 *
 * <p>The observations are the fleet's, read from the solve table (at most every {@link #REFRESH}),
 * so that a new node starts from what the others learned instead of the prior.
 *
 * <p>What a poll observes is censored: a task was ready at some unknown instant before the poll
 * that found it. Each solve's ready time is estimated as half a poll interval before that poll, and
 * the learned wait is the 20th percentile (nearest rank, {@link Percentiles}) of those estimates.
 * The estimate depends only on the observed window, not on the current wait, so nodes that refresh
 * often cannot run away together: when more than one task in five is found at its first poll the
 * percentile falls below the current wait, when fewer it rises above it, and the wait settles where
 * about one in five is.
 *
 * <p>Called before every in.php, from every worker thread: it never blocks. One caller per type
 * re-reads the observations when they are due; the others meanwhile use the last wait (or, before
 * the first read, the prior).
 */
public final class FirstPollWaits {

  /** How often a node re-reads the fleet's observations of a type. */
  public static final Duration REFRESH = Duration.ofSeconds(2);

  private static final double TARGET_READY_AT_FIRST_POLL = 0.2;
  private static final int WINDOW = 50;

  private final SolveSettings settings;
  private final BiFunction<CaptchaType, Integer, List<SolveRepository.SolvedSample>> recent;
  private final Clock clock;
  private final Map<CaptchaType, Learned> learned = new ConcurrentHashMap<>();
  private final Map<CaptchaType, AtomicBoolean> refreshing = new EnumMap<>(CaptchaType.class);

  /**
   * A type's wait, the longest pushed solve among the same observations (-1: too few of them), and
   * when they were computed.
   */
  private record Learned(long millis, long longestPushedMillis, Instant at) {}

  /**
   * How many answers of a type found by a fetch a push rang for, among the observations, before
   * {@link #longestPushed} tells anything.
   */
  static final int MIN_PUSHED = 20;

  /** Added to the longest pushed solve seen: the next one may take a little longer. */
  public static final Duration LONGEST_PUSHED_MARGIN = Duration.ofSeconds(1);

  /**
   * @param recent the fleet's most recent solved tasks of a type, newest first, at most n
   */
  public FirstPollWaits(
      SolveSettings settings,
      BiFunction<CaptchaType, Integer, List<SolveRepository.SolvedSample>> recent,
      Clock clock) {
    this.settings = settings;
    this.recent = recent;
    this.clock = clock;
    for (CaptchaType type : CaptchaType.values()) {
      refreshing.put(type, new AtomicBoolean());
    }
  }

  /** The wait between in.php and the first res.php call for a type. */
  public Duration waitFor(CaptchaType type) {
    Instant now = clock.instant();
    Learned known = learned.get(type);
    boolean due = known == null || !now.isBefore(known.at().plus(REFRESH));
    AtomicBoolean busy = refreshing.get(type);
    if (due && busy.compareAndSet(false, true)) {
      try {
        List<SolveRepository.SolvedSample> window = recent.apply(type, WINDOW);
        known = new Learned(blend(type, window), longestPushed(window), now);
        learned.put(type, known);
      } finally {
        busy.set(false);
      }
    }
    return Duration.ofMillis(known != null ? known.millis() : blend(type, List.of()));
  }

  /**
   * The longest of the type's recent solves whose answer a pushed fetch found, with {@link
   * #LONGEST_PUSHED_MARGIN}: where the fallback poll for a lost push goes while pushes arrive
   * ({@code steps.SubmitStep}), instead of the type's documented upper solve time, which the
   * provider's real times often stay far below. Empty until {@link #MIN_PUSHED} such solves are
   * among the last observations, and before {@link #waitFor} first read them.
   */
  public Optional<Duration> longestPushed(CaptchaType type) {
    Learned known = learned.get(type);
    return known == null || known.longestPushedMillis() < 0
        ? Optional.empty()
        : Optional.of(Duration.ofMillis(known.longestPushedMillis()).plus(LONGEST_PUSHED_MARGIN));
  }

  static long longestPushed(List<SolveRepository.SolvedSample> window) {
    LongSummaryStatistics pushed =
        window.stream()
            .filter(SolveRepository.SolvedSample::pushed)
            .mapToLong(SolveRepository.SolvedSample::sinceSubmitMillis)
            .summaryStatistics();
    return pushed.getCount() < MIN_PUSHED ? -1 : pushed.getMax();
  }

  /** The wait before anything was seen: the configured first-poll wait of the type. */
  long prior(CaptchaType type) {
    return settings.firstPollWait(type).toMillis();
  }

  long blend(CaptchaType type, List<SolveRepository.SolvedSample> window) {
    long prior = prior(type);
    long blended = prior;
    if (!window.isEmpty()) {
      double k = settings.learnAfterSolves();
      double n = window.size();
      blended = Math.round((k * prior + n * learn(window)) / (k + n));
    }
    return Math.max(settings.minFirstPollWait().toMillis(), blended);
  }

  long learn(List<SolveRepository.SolvedSample> window) {
    long halfInterval = settings.pollInterval().toMillis() / 2;
    List<Long> estimates = window.stream().map(s -> s.sinceSubmitMillis() - halfInterval).toList();
    long next = (long) Percentiles.of(estimates, TARGET_READY_AT_FIRST_POLL);
    long floor = settings.minFirstPollWait().toMillis();
    long ceiling = Math.max(floor, settings.solveTimeout().toMillis() / 2);
    return Math.max(0, Math.min(ceiling, next));
  }
}
