package com.captchajobs.worker.engine;

import com.captchajobs.worker.client.CaptchaType;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * When to poll a task first (design.md §7). Until enough solves of a type were seen, the
 * documented wait; then a wait learned from what the polls observed, aiming at about one task in
 * five being ready at its first poll: then few tasks wait long for their first poll and few first
 * polls are wasted. Never below the minimum wait, never more than one poll per 5 s.
 *
 * <p>What a poll observes is censored: a task found at its first poll was ready at some unknown
 * instant before it. So the learner works on the share found at the first poll: above the target
 * it moves the wait down by a step; below it, up to the 20th percentile of the estimated ready
 * times (a task found at a later poll was ready, on average, half a poll interval before it).
 */
public final class FirstPollWaits {

  private static final double TARGET_READY_AT_FIRST_POLL = 0.2;
  private static final int WINDOW = 50;

  private record Observation(boolean readyAtFirstPoll, long estimatedReadyMillis) {}

  private final EngineSettings settings;
  private final Map<CaptchaType, Deque<Observation>> observations = new EnumMap<>(CaptchaType.class);
  private final Map<CaptchaType, Long> learned = new EnumMap<>(CaptchaType.class);

  public FirstPollWaits(EngineSettings settings) {
    this.settings = settings;
  }

  /** The wait between in.php and the first res.php call for a type. */
  public synchronized Duration waitFor(CaptchaType type) {
    Long millis = learned.get(type);
    return millis == null ? settings.firstPollWait(type) : Duration.ofMillis(millis);
  }

  /**
   * Records a solved task.
   *
   * @param pollNo the poll that found the answer, 1 for the first poll
   * @param sinceSubmitMillis time from in.php to that poll
   */
  public synchronized void observe(CaptchaType type, int pollNo, long sinceSubmitMillis) {
    long interval = settings.pollInterval().toMillis();
    long estimate = pollNo == 1 ? sinceSubmitMillis : sinceSubmitMillis - interval / 2;
    Deque<Observation> window = observations.computeIfAbsent(type, t -> new ArrayDeque<>());
    window.addLast(new Observation(pollNo == 1, estimate));
    if (window.size() > WINDOW) {
      window.removeFirst();
    }
    if (window.size() >= settings.learnAfterSolves()) {
      learned.put(type, relearn(type, window));
    }
  }

  private long relearn(CaptchaType type, Deque<Observation> window) {
    long current = waitFor(type).toMillis();
    long floor = settings.minFirstPollWait().toMillis();
    long readyAtFirst = window.stream().filter(Observation::readyAtFirstPoll).count();
    double share = (double) readyAtFirst / window.size();
    long next;
    if (share > TARGET_READY_AT_FIRST_POLL * 1.5) {
      next = current - Math.max(250, current / 10);
    } else if (share < TARGET_READY_AT_FIRST_POLL / 2) {
      List<Long> estimates = new ArrayList<>();
      window.forEach(o -> estimates.add(o.estimatedReadyMillis()));
      Collections.sort(estimates);
      next = estimates.get((int) Math.floor(TARGET_READY_AT_FIRST_POLL * (estimates.size() - 1)));
    } else {
      next = current;
    }
    long ceiling = Math.max(floor, settings.solveTimeout().toMillis() / 2);
    return Math.max(floor, Math.min(ceiling, next));
  }
}
