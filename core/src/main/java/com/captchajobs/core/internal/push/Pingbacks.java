package com.captchajobs.core.internal.push;

import com.captchajobs.core.client.CaptchaAiApiException;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.engine.TaskOutcomes;
import com.captchajobs.core.internal.provider.PingbackUrls;
import com.captchajobs.core.internal.retry.Step;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers pushed by the provider (see "Pushed answers" in docs/pingback.md). A worker sends every
 * in.php with a signed pingback URL of its own ({@link PingbackUrls}); the provider calls it with
 * {@code ?id=<task id>&code=<answer>} when the task is done. {@link #receive} counts a push only
 * when the signature matches (compared in constant time) and {@code id} is the task id stored for
 * that very submission while it still waits for its answer; the answer or error code then goes the
 * way a polled one goes ({@link TaskOutcomes}). Anything else is refused and stores nothing.
 *
 * <p>Refused pushes are counted, never logged one by one: one summary line at most every {@link
 * #REFUSED_LOG_EVERY}, so a flood of forged calls cannot fill the log. Neither the answer nor a
 * signature is ever logged.
 */
public final class Pingbacks {

  private static final Logger log = LoggerFactory.getLogger(Pingbacks.class);

  /** The path under which app nodes serve pushes ({@link PingbackUrls#PATH}). */
  public static final String PATH = PingbackUrls.PATH;

  /** The shortest pingback secret accepted ({@link PingbackUrls#MIN_SECRET_CHARS}). */
  public static final int MIN_SECRET_CHARS = PingbackUrls.MIN_SECRET_CHARS;

  /** Longest answer accepted (tokens are a few kilobytes; GeeTest answers are JSON). */
  static final int MAX_CODE_CHARS = 64 * 1024;

  /** How often at most a summary of refused pushes is logged. */
  static final Duration REFUSED_LOG_EVERY = Duration.ofMinutes(1);

  /** Codes the provider answers that do not start with {@code ERROR_}. */
  private static final Set<String> OTHER_CODES =
      Set.of("IP_BANNED", "CAPCHA_NOT_READY", "MAX_USER_TURN", "REPORT_NOT_RECORDED", "ERROR");

  /** What a push did. */
  public enum Verdict {
    /** The answer was stored: the solve is SOLVED and its slot handed on. */
    STORED,
    /** An error code ended the task: classified and acted on like a polled one. */
    FAILED,
    /**
     * A valid push that changes nothing now (a transient code, or "not ready"): polling goes on.
     */
    NOTED,
    /** Wrong signature, unknown or old task, malformed code, or a solve no longer waiting. */
    REFUSED
  }

  private final PingbackUrls urls;
  private final SolveRepository repository;
  private final TaskOutcomes outcomes;
  private final Clock clock;
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong counted = new AtomicLong();
  private final AtomicLong refusedSinceLog = new AtomicLong();
  private final AtomicReference<Instant> lastRefusedLog = new AtomicReference<>(Instant.EPOCH);

  /**
   * @param urls the signatures pushes are checked against
   * @param outcomes what a counted answer or code does, as for a polled one
   */
  public Pingbacks(
      PingbackUrls urls, SolveRepository repository, TaskOutcomes outcomes, Clock clock) {
    this.urls = urls;
    this.repository = repository;
    this.outcomes = outcomes;
    this.clock = clock;
  }

  /** The URLs and signatures pushes are checked against. */
  public PingbackUrls urls() {
    return urls;
  }

  /**
   * Handles one push: the three path segments after {@link #PATH} as they came, and the query's
   * {@code id} and {@code code}. Never throws for what the caller sent.
   */
  public Verdict receive(
      String solveId, String submitNo, String signature, String taskId, String code) {
    Verdict verdict = handle(solveId, submitNo, signature, taskId, code);
    if (verdict == Verdict.REFUSED) {
      refused();
    } else {
      counted.incrementAndGet();
    }
    return verdict;
  }

  /** Pushes refused since start. */
  public long refusedCount() {
    return refused.get();
  }

  /** Pushes that counted (stored, failed or noted) since start. */
  public long countedCount() {
    return counted.get();
  }

  private Verdict handle(
      String solveIdText, String submitNoText, String signature, String taskId, String code) {
    UUID solveId = parseUuid(solveIdText);
    int submitNo = parseSubmitNo(submitNoText);
    if (solveId == null || submitNo < 1 || signature == null || taskId == null) {
      return Verdict.REFUSED;
    }
    if (!urls.verify(solveId, submitNo, signature)) {
      return Verdict.REFUSED;
    }
    if (!wellFormed(code)) {
      return Verdict.REFUSED;
    }
    Optional<Solve> found = repository.find(solveId);
    if (found.isEmpty()) {
      return Verdict.REFUSED;
    }
    Solve solve = found.get();
    if (solve.status() != SolveState.SUBMITTED
        || solve.submits() != submitNo
        || !taskId.equals(solve.taskId())) {
      return Verdict.REFUSED; // an old or unknown task, or a replay after the solve moved on
    }
    if (!isCode(code)) {
      TaskOutcomes.Stored answer =
          outcomes.solved(solve, submitNo, solve.polls(), code, null, null, true);
      if (answer.next() instanceof Step.Failed) {
        return Verdict.FAILED; // possibly too old, and past the deadline: the solve failed
      }
      return answer.stored() ? Verdict.STORED : Verdict.REFUSED;
    }
    ErrorClass errorClass = ErrorClass.of(code);
    if (!errorClass.permanent()) {
      return Verdict.NOTED; // transient or not ready: the fallback poll goes on
    }
    outcomes.taskError(solve, submitNo, new CaptchaAiApiException(code, taskId));
    return Verdict.FAILED; // recorded and acted on; the step is for poll jobs
  }

  /** An answer or a code: not empty, not too long, no control characters. */
  private static boolean wellFormed(String code) {
    if (code == null || code.isEmpty() || code.length() > MAX_CODE_CHARS) {
      return false;
    }
    for (int i = 0; i < code.length(); i++) {
      if (Character.isISOControl(code.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the pushed {@code code} is a provider code rather than an answer. Image answers may be
   * upper-case words, so only {@code ERROR...} and the provider's few other codes count.
   */
  private static boolean isCode(String code) {
    return code.startsWith("ERROR_") || OTHER_CODES.contains(code) || code.startsWith("ERROR:");
  }

  private void refused() {
    refused.incrementAndGet();
    refusedSinceLog.incrementAndGet();
    Instant now = clock.instant();
    Instant last = lastRefusedLog.get();
    if (now.isAfter(last.plus(REFUSED_LOG_EVERY)) && lastRefusedLog.compareAndSet(last, now)) {
      log.warn(
          "Refused {} pingback(s) since the last report (wrong signature, unknown or old task,"
              + " malformed code, or the solve no longer waiting); {} refused since start",
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
    if (text == null || text.isEmpty() || text.length() > 6) {
      return -1;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return -1;
      }
    }
    return Integer.parseInt(text);
  }
}
