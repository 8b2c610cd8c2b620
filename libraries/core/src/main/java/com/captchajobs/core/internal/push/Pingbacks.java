package com.captchajobs.core.internal.push;

import com.captchajobs.core.internal.provider.PingbackUrls;
import com.captchajobs.core.internal.providers.CallPacing;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.PushRings;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveEvents;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.store.TaskCalls;
import com.captchajobs.core.internal.time.AtMostEvery;
import com.captchajobs.core.pingback.PingbackReceiver;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes by the provider, taken as a doorbell (see "Pushed answers" in docs/pingback.md). A worker
 * sends every in.php with a signed pingback URL of its own ({@link PingbackUrls}); the provider
 * calls it when the task is done. {@link #receive} counts a push only when the signature in the
 * path matches (compared in constant time) and that very submission of the solve still waits for
 * its answer. It rings at most once per res.php call on the task ({@link PushRings}): every further
 * push until the task's next call costs one indexed read and nothing else. A push that rings stores
 * nothing but its event: it asks a worker to fetch the task's result from res.php at once ({@link
 * SolveJobs#pushedPoll}), keeping the provider's 5 s between two calls on the task, and what
 * res.php says is stored like a polled outcome. Whatever the provider or anyone else sent along
 * ({@code id}, {@code code}, a body) is never read here: it is never stored, classified or logged,
 * so a forged answer or error code on a leaked URL changes nothing.
 *
 * <p>Refused pushes are counted, never logged one by one: one summary line at most every {@link
 * #REFUSED_LOG_EVERY}, so a flood of forged calls cannot fill the log. A signature is never logged.
 */
public final class Pingbacks implements PingbackReceiver {

  private static final Logger log = LoggerFactory.getLogger(Pingbacks.class);

  /** How often at most a summary of refused pushes is logged. */
  static final Duration REFUSED_LOG_EVERY = Duration.ofMinutes(1);

  /** A submission number as a push carries it: one to six ASCII digits. */
  private static final Pattern SUBMIT_NO = Pattern.compile("[0-9]{1,6}");

  private final PingbackUrls urls;
  private final SolveRepository repository;
  private final SolveTransitions transitions;
  private final SolveJobs jobs;
  private final SolveSettings settings;
  private final Clock clock;
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong refusedSinceLog = new AtomicLong();
  private final AtMostEvery refusedLog;

  /**
   * @param urls the signatures pushes are checked against
   * @param jobs where the fetch a push asks for is created
   */
  public Pingbacks(
      PingbackUrls urls,
      SolveRepository repository,
      SolveTransitions transitions,
      SolveJobs jobs,
      SolveSettings settings,
      Clock clock) {
    this.urls = urls;
    this.repository = repository;
    this.transitions = transitions;
    this.jobs = jobs;
    this.settings = settings;
    this.clock = clock;
    this.refusedLog = new AtMostEvery(REFUSED_LOG_EVERY, clock);
  }

  public PingbackUrls urls() {
    return urls;
  }

  /**
   * Handles one push: the three path segments after {@link #PATH} as they came. Nothing else of the
   * call is looked at. Never throws for what the caller sent.
   */
  @Override
  public PushResult receive(String solveId, String submitNo, String signature) {
    PushResult verdict = handle(solveId, submitNo, signature);
    if (verdict == PushResult.REFUSED) {
      refused();
    }
    return verdict;
  }

  /** Pushes refused since start. */
  public long refusedCount() {
    return refused.get();
  }

  private PushResult handle(String solveIdText, String submitNoText, String signature) {
    UUID solveId = parseUuid(solveIdText);
    int submitNo = parseSubmitNo(submitNoText);
    if (solveId == null || submitNo < 1 || signature == null) {
      return PushResult.REFUSED;
    }
    if (!urls.verify(solveId, submitNo, signature)) {
      return PushResult.REFUSED;
    }
    PushRings rings = transitions.pushRings();
    PushRings.State state = rings.state(solveId, submitNo); // the one read a flood costs
    if (state == PushRings.State.NOT_WAITING) {
      return PushResult.REFUSED; // an old submission, or a replay after the solve moved on
    }
    if (state == PushRings.State.RUNG) {
      return PushResult.RANG; // rang since the task's last call: that fetch answers this push too
    }
    // One fetch per call made on the task: of all pushes until the next call (the provider's
    // second delivery, a flood on a leaked URL), one wins the ring and creates it.
    ring(rings, solveId, submitNo, "submission " + submitNo);
    return PushResult.RANG;
  }

  /**
   * Rings the fetch of every submission that waits for a pushed answer and whose task was not
   * called since {@code since}, as a push would: a push that came while the database was away (an
   * outage, a restart) was refused, and the provider does not send it again, so its answer would
   * wait for a fallback poll. Called when this node's database connection is back; the ring makes
   * it one fetch per task whichever nodes call it, and one that finds the task not ready changes
   * nothing. Returns how many fetches it rang.
   */
  public int ringMissed(Instant since) {
    PushRings rings = transitions.pushRings();
    int rang = 0;
    for (PushRings.Waiting w : rings.waitingNotCalledSince(since)) {
      String event = "submission " + w.submitNo() + ", rung when the database was back";
      if (ring(rings, w.id(), w.submitNo(), event)) {
        rang++;
      }
    }
    if (rang > 0) {
      log.info(
          "Rang the fetch of {} waiting task(s) not called since {}: their pushes may have been"
              + " refused while the database was away",
          rang,
          since);
    }
    return rang;
  }

  /** Wins the ring of a submission and creates the fetch it rings for; false when it lost. */
  private boolean ring(PushRings rings, UUID solveId, int submitNo, String event) {
    PushRings.Rung rung = rings.ring(solveId, submitNo).orElse(null);
    if (rung == null) {
      return false; // another push won it, or the solve moved on a moment ago
    }
    Optional<Solve> found = repository.find(solveId);
    if (found.isEmpty()) {
      return false;
    }
    Optional<Instant> lastCall =
        transitions.calls().lastPoll(solveId, submitNo).map(TaskCalls.LastPoll::calledAt);
    // 5 s after the task's last call, timed from its answer as the fetch's claim counts
    Instant at = CallPacing.pushedFetchAt(rung, lastCall.orElse(null), clock.instant(), settings);
    jobs.pushedPoll(
        found.get(), submitNo, rung.callNo(), lastCall.map(Instant::toEpochMilli).orElse(0L), at);
    transitions.events().record(solveId, SolveEvents.PUSH, event);
    return true;
  }

  private void refused() {
    refused.incrementAndGet();
    refusedSinceLog.incrementAndGet();
    if (refusedLog.pass()) {
      log.warn(
          "Refused {} pingback(s) since the last report (wrong signature, an old submission, or"
              + " the solve no longer waiting); {} refused since start",
          refusedSinceLog.getAndSet(0),
          refused.get());
    }
  }

  private static UUID parseUuid(String text) {
    if (text == null || text.length() != 36) {
      return null;
    }
    try {
      return UUID.fromString(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static int parseSubmitNo(String text) {
    return text != null && SUBMIT_NO.matcher(text).matches() ? Integer.parseInt(text) : -1;
  }
}
