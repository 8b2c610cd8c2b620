package com.captchajobs.core.internal.config;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.events.EngineListener;
import java.time.Duration;

/**
 * What the engine reports as it goes, inside the core. Every method has a no-op default. Outside
 * the core the public {@link EngineListener} is the way in: {@link #of} hands the events to one.
 */
public interface EngineEvents {

  EngineEvents NONE = new EngineEvents() {};

  /** The events told to {@code listener}; {@link #NONE} for {@link EngineListener#NONE}. */
  static EngineEvents of(EngineListener listener) {
    return listener == EngineListener.NONE ? NONE : new ListenerEvents(listener);
  }

  /** in.php accepted a task; {@code resumed} when a rerun found a stored task id instead. */
  default void submitted(CaptchaType type, boolean resumed) {}

  /** A token was stored: submit → token, and how many res.php calls it took. */
  default void solved(CaptchaType type, Duration latency, int polls) {}

  /**
   * An answer was stored: {@code pushed} when a push rang for it and res.php confirmed it, else it
   * was found by a poll alone.
   */
  default void answered(CaptchaType type, boolean pushed) {}

  /** A classified error; permanent or not. */
  default void error(String code, ErrorClass errorClass) {}

  /** A res.php call: how late it was against its intended instant (negative: early). */
  default void polled(CaptchaType type, Duration lateness) {}

  /** A token was handed out, {@code age} after it was stored. */
  default void claimed(CaptchaType type, Duration age) {}

  /** A freed slot went to a waiting solve and its in.php call followed after {@code delay}. */
  default void handedOff(Duration delay) {}

  /** A caller reported a claimed answer (recorded; it reaches the provider from a worker). */
  default void reported(CaptchaType type, Verdict verdict) {}
}
