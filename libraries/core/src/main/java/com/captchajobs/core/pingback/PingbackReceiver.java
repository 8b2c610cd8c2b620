package com.captchajobs.core.pingback;

/**
 * Where a node hands over a push by the provider (see docs/pingback.md): a worker sends every
 * in.php with a signed pingback URL under {@link #PATH}, and the node serving that path passes each
 * call's three path segments to {@link #receive}. A push is a doorbell: it makes a worker fetch the
 * task's result from res.php at once, and what res.php says is stored. Nothing else of the call
 * (its query, its body, the pushed answer or code) is ever handed over, stored or logged. Obtained
 * with {@code CaptchaJobs.pingbacks()}, present on a node given {@code captchaai.pingback-secret}.
 *
 * <pre>{@code
 * // GET or POST /captchaai/pingback/<solve id>/<submit no>/<signature>?id=...&code=...
 * PushResult verdict = receiver.receive(solveId, submitNo, signature);
 * return verdict == PushResult.REFUSED ? 404 : 200;
 * }</pre>
 */
public interface PingbackReceiver {

  /** The path under which app nodes serve pushes; {@code captchaai.pingback-url} ends with it. */
  String PATH = "/captchaai/pingback";

  /** The shortest {@code captchaai.pingback-secret} accepted. */
  int MIN_SECRET_CHARS = com.captchajobs.core.settings.PingbackSettings.MIN_SECRET_CHARS;

  /** What a push did. */
  enum PushResult {
    /** The push counted: a worker fetches the task's result from res.php at once. */
    RANG,
    /** Wrong signature, an old submission, or a solve no longer waiting: nothing happens. */
    REFUSED
  }

  /**
   * Handles one push: the three path segments after {@link #PATH} as they came (each may be null).
   * A push counts only when its signature matches and that very submission of the solve still waits
   * for its answer; anything else is {@link PushResult#REFUSED}. Never throws for what the caller
   * sent.
   *
   * @throws RuntimeException when the database cannot be reached (the fallback poll will find the
   *     answer)
   */
  PushResult receive(String solveId, String submitNo, String signature);
}
