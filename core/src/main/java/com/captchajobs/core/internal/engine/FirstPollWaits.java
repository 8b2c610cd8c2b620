package com.captchajobs.core.internal.engine;

import com.captchajobs.core.client.CaptchaType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * When to poll a task first (see "First poll" in docs/architecture.md). A type starts from a prior,
 * its configured first-poll wait, by default drawn from its documented solve-time range ({@link
 * EngineSettings#defaultFirstPollWaits()}: the 20th percentile of that range). Observed solves take
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
 * the learned wait is the 20th percentile of those estimates. The estimate depends only on the
 * observed window, not on the current wait, so nodes that refresh often cannot run away together:
 * when more than one task in five is found at its first poll the percentile falls below the current
 * wait, when fewer it rises above it, and the wait settles where about one in five is.
 */
public final class FirstPollWaits {

  /** How often a node re-reads the fleet's observations of a type. */
  public static final Duration REFRESH = Duration.ofSeconds(2);

  private static final double TARGET_READY_AT_FIRST_POLL = 0.2;
  private static final int WINDOW = 50;

  private final EngineSettings settings;
  private final BiFunction<CaptchaType, Integer, List<SolveRepository.SolvedSample>> recent;
  private final Clock clock;
  private final Map<CaptchaType, Long> learned = new EnumMap<>(CaptchaType.class);
  private final Map<CaptchaType, Instant> refreshed = new EnumMap<>(CaptchaType.class);

  /**
   * @param recent the fleet's most recent solved tasks of a type, newest first, at most n
   */
  public FirstPollWaits(
      EngineSettings settings,
      BiFunction<CaptchaType, Integer, List<SolveRepository.SolvedSample>> recent,
      Clock clock) {
    this.settings = settings;
    this.recent = recent;
    this.clock = clock;
  }

  /** The wait between in.php and the first res.php call for a type. */
  public synchronized Duration waitFor(CaptchaType type) {
    Instant now = clock.instant();
    Instant last = refreshed.get(type);
    if (last == null || !now.isBefore(last.plus(REFRESH))) {
      refreshed.put(type, now);
      List<SolveRepository.SolvedSample> window = recent.apply(type, WINDOW);
      learned.put(type, blend(type, window));
    }
    return Duration.ofMillis(learned.get(type));
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
    List<Long> estimates = new ArrayList<>();
    window.forEach(s -> estimates.add(s.sinceSubmitMillis() - halfInterval));
    Collections.sort(estimates);
    long next =
        estimates.get((int) Math.floor(TARGET_READY_AT_FIRST_POLL * (estimates.size() - 1)));
    long floor = settings.minFirstPollWait().toMillis();
    long ceiling = Math.max(floor, settings.solveTimeout().toMillis() / 2);
    return Math.max(0, Math.min(ceiling, next));
  }
}
