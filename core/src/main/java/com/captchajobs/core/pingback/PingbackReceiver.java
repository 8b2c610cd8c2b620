package com.captchajobs.core.pingback;

/**
 * Where a node hands over an answer the provider pushed (see docs/pingback.md): a worker sends
 * every in.php with a signed pingback URL under {@link #PATH}, and the node serving that path
 * passes each call's three path segments and its {@code id} and {@code code} query parameters to
 * {@link #receive}. Obtained with {@code CaptchaJobs.pingbacks()}, present on a node given {@code
 * captchaai.pingback-secret}.
 *
 * <pre>{@code
 * // GET /captchaai/pingback/<solve id>/<submit no>/<signature>?id=<task id>&code=<answer>
 * Verdict verdict = receiver.receive(solveId, submitNo, signature, taskId, code);
 * return verdict == Verdict.REFUSED ? 404 : 200;
 * }</pre>
 */
public interface PingbackReceiver {

  /** The path under which app nodes serve pushes; {@code captchaai.pingback-url} ends with it. */
  String PATH = "/captchaai/pingback";

  /** The shortest {@code captchaai.pingback-secret} accepted. */
  int MIN_SECRET_CHARS = 32;

  /** What a push did. */
  enum Verdict {
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

  /**
   * Handles one push: the three path segments after {@link #PATH} as they came, and the query's
   * {@code id} and {@code code} (each may be null). A push counts only when its signature matches
   * and {@code id} is the task of that very submission, still waiting for its answer; anything else
   * is {@link Verdict#REFUSED} and stores nothing. Never throws for what the caller sent.
   *
   * @throws RuntimeException when the database cannot be reached (the fallback poll will find the
   *     answer)
   */
  Verdict receive(String solveId, String submitNo, String signature, String taskId, String code);
}
