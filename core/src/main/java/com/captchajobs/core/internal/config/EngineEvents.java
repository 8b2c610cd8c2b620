package com.captchajobs.core.internal.config;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import java.time.Duration;

/** What the engine reports as it goes, for metrics. Every method has a no-op default. */
public interface EngineEvents {

  EngineEvents NONE = new EngineEvents() {};

  /** in.php accepted a task; {@code resumed} when a rerun found a stored task id instead. */
  default void submitted(CaptchaType type, boolean resumed) {}

  /** A token was stored: submit → token, and how many res.php calls it took. */
  default void solved(CaptchaType type, Duration latency, int polls) {}

  /** A classified error; permanent or not. */
  default void error(String code, ErrorClass errorClass) {}

  /** A res.php call: how late it was against its intended instant (negative: early). */
  default void polled(CaptchaType type, Duration lateness) {}

  /** A token was handed out, {@code age} after it was stored. */
  default void claimed(CaptchaType type, Duration age) {}

  /** A freed slot went to a waiting solve and its in.php call followed after {@code delay}. */
  default void handedOff(Duration delay) {}
}
