package com.captchajobs.core.internal.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the operator when pushes are asked for but none arrives (see "A push you can see" in
 * docs/pingback.md): on a worker given {@code captchaai.pingback-url}, when the last {@link
 * #ANSWERS} answers, or those of the last {@link #WINDOW} if that comes first, all came by poll
 * alone, one WARN names the property and what to check. It repeats at most every {@link #WINDOW}. A
 * single answer that came after a push starts the count again.
 */
public final class PushWatch {

  private static final Logger log = LoggerFactory.getLogger(PushWatch.class);

  /** How many answers by poll alone make the WARN. */
  public static final int ANSWERS = 20;

  /** The longest window looked at, and the least time between two WARNs. */
  public static final Duration WINDOW = Duration.ofMinutes(10);

  private final String url;
  private final Clock clock;

  /**
   * While pushes arrive, answers found by a fallback poll in a row fewer than this: a push may be
   * lost now and then, but from this many on the fallback polls go back to the usual rhythm.
   */
  public static final int POLLED_IN_A_ROW = 3;

  private int polled; // guarded by this
  private int polledInARow; // guarded by this
  private boolean pushedOnce; // guarded by this
  private Instant windowStart; // guarded by this; null: no answer yet
  private Instant lastWarn; // guarded by this; null: never

  /**
   * @param url the configured {@code captchaai.pingback-url}, named in the WARN
   */
  public PushWatch(String url, Clock clock) {
    this.url = url;
    this.clock = clock;
  }

  /** An answer was stored; {@code pushed} when a push rang for it. */
  public void answered(boolean pushed) {
    Instant now = clock.instant();
    synchronized (this) {
      polledInARow = pushed ? 0 : polledInARow + 1;
      pushedOnce |= pushed;
      if (pushed) {
        polled = 0;
        windowStart = null;
        return;
      }
      if (windowStart == null) {
        windowStart = now;
      }
      polled++;
      boolean due = polled >= ANSWERS || !now.isBefore(windowStart.plus(WINDOW));
      if (!due) {
        return;
      }
      int count = polled;
      polled = 0;
      windowStart = null;
      if (lastWarn != null && now.isBefore(lastWarn.plus(WINDOW))) {
        return;
      }
      lastWarn = now;
      warn(count);
    }
  }

  /**
   * Whether pushes arrive: an answer on this node came by push, and fewer than {@link
   * #POLLED_IN_A_ROW} answers since came by poll alone. Fallback polls are spaced wider meanwhile
   * ({@link PollStep}).
   */
  public synchronized boolean pushesArrive() {
    return pushedOnce && polledInARow < POLLED_IN_A_ROW;
  }

  private void warn(int count) {
    log.warn(
        "captchaai.pingback-url is set ({}) but the last {} answer(s) all came by poll: no push"
            + " arrives. Check that the URL is reachable from the internet (the provider calls it,"
            + " through your load balancer), that it is https with a valid certificate, and that"
            + " its host is registered with the provider (res.php?action=add_pingback, see"
            + " captchaai.pingback-register and docs/pingback.md). Polling goes on meanwhile.",
        url,
        count);
  }
}
