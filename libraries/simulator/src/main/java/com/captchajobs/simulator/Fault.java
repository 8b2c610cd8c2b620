package com.captchajobs.simulator;

/**
 * A misbehaviour of the service, injected per call with {@link CaptchaAiSimulator#injectNext} or
 * with a seeded probability ({@link CaptchaAiSimulator.Builder#fault}).
 *
 * <p>Only {@link #PLAIN_TEXT}, {@link #SLOW} and {@link #LOST_RESPONSE} let the call reach the
 * simulated service (so an {@code in.php} call creates its task); all others answer without
 * touching any task.
 */
public enum Fault {
  /** HTTP 502 with an nginx-style HTML page. */
  HTML_502,
  /** HTTP 500 with an HTML page. */
  HTML_500,
  /**
   * The real answer, but in plain-text form ({@code OK|123}) even though {@code json=1} was sent.
   */
  PLAIN_TEXT,
  /** HTTP 200 with an empty body. */
  EMPTY_BODY,
  /** {@code ERROR_SERVER_ERROR} in the requested format. */
  SERVER_ERROR,
  /** {@code ERROR_INTERNAL_SERVER_ERROR} in the requested format. */
  INTERNAL_SERVER_ERROR,
  /** {@code ERROR_TOO_MUCH_REQUESTS} in the requested format. */
  RATE_LIMIT,
  /** The real answer, sent after {@link CaptchaAiSimulator.Builder#slowDelay}. */
  SLOW,
  /** No answer for five minutes (or until the simulator closes), then the connection is closed. */
  HANG,
  /** The connection is closed without any response. */
  RESET,
  /**
   * {@code in.php} only when injected: the task is created and counted, but the reply is an HTML
   * 502. A report meets it while {@link CaptchaAiSimulator#reportAnswersLost} is on: recorded, then
   * an HTML 502.
   */
  LOST_RESPONSE
}
