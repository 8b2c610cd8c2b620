package com.captchajobs.core.events;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.Verdict;
import java.time.Duration;

/**
 * What the engine reports as it goes, for metrics and tracing: one method per event, each a no-op
 * until overridden. Register one with {@code CaptchaJobs.builder().listener(..)}; the Spring Boot
 * starter registers its Micrometer meters this way, or the application's own {@code EngineListener}
 * bean instead.
 *
 * <pre>{@code
 * CaptchaJobs.builder()
 *     .dataSource(dataSource)
 *     .listener(new EngineListener() {
 *       @Override
 *       public void solved(CaptchaType type, Duration latency, int polls) {
 *         log.info("{} solved in {} after {} polls", type, latency, polls);
 *       }
 *     })
 *     .build();
 * }</pre>
 *
 * <p>The events of a solve come in two forms: with the provider it ran at ({@code captchaai}, the
 * primary, or a name under {@code captchajobs.providers.*}) first, which the engine calls, and
 * without it, which the first form calls unless overridden. A listener written against the older
 * form keeps working; one that wants the provider overrides the newer form.
 *
 * <p>Methods are called on the engine's worker threads while a job runs, so they must return
 * quickly and must not throw. Events carry public types only: never an API key, a token or a
 * solve's parameters.
 */
public abstract class EngineListener {

  /** A listener that does nothing, the default. */
  public static final EngineListener NONE = new EngineListener() {};

  /** in.php accepted a task; {@code resumed} when a rerun found a stored task id instead. */
  public void submitted(CaptchaType type, boolean resumed) {}

  /** {@link #submitted(CaptchaType, boolean)} at {@code provider}; see the class comment. */
  public void submitted(String provider, CaptchaType type, boolean resumed) {
    submitted(type, resumed);
  }

  /**
   * A provider that bills per solve accepted a task from this node: {@code amount} is its price of
   * one solve of {@code type} ({@code captchajobs.providers.<name>.price.<TYPE>} / 1,000).
   */
  public void spent(String provider, CaptchaType type, java.math.BigDecimal amount) {}

  /** A token was stored: submit to token, and how many res.php calls it took. */
  public void solved(CaptchaType type, Duration latency, int polls) {}

  /** {@link #solved(CaptchaType, Duration, int)} at {@code provider}; see the class comment. */
  public void solved(String provider, CaptchaType type, Duration latency, int polls) {
    solved(type, latency, polls);
  }

  /**
   * An answer was stored: {@code pushed} when the provider's push rang for it (and res.php
   * confirmed it), else a poll alone found it. Counted as {@code captchajobs.answers} by the
   * starter's meters.
   */
  public void answered(CaptchaType type, boolean pushed) {}

  /** {@link #answered(CaptchaType, boolean)} at {@code provider}; see the class comment. */
  public void answered(String provider, CaptchaType type, boolean pushed) {
    answered(type, pushed);
  }

  /** A classified error code (the provider's, the client's or the engine's); permanent or not. */
  public void error(String code, ErrorClass errorClass) {}

  /** A res.php call: how late it was against its intended instant (negative: early). */
  public void polled(CaptchaType type, Duration lateness) {}

  /** {@link #polled(CaptchaType, Duration)} at {@code provider}; see the class comment. */
  public void polled(String provider, CaptchaType type, Duration lateness) {
    polled(type, lateness);
  }

  /** A token was handed out, {@code age} after it was stored. */
  public void claimed(CaptchaType type, Duration age) {}

  /** A freed slot went to a waiting solve and its in.php call followed after {@code delay}. */
  public void handedOff(Duration delay) {}

  /**
   * A caller reported a claimed answer as {@code verdict} ({@code Solves.report}), on the node that
   * accepted the report; a worker sends it to the provider shortly after.
   */
  public void reported(CaptchaType type, Verdict verdict) {}
}
