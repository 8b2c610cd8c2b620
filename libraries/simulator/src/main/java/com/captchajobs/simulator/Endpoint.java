package com.captchajobs.simulator;

/** The two CaptchaAI API endpoints a fault can be injected into. */
public enum Endpoint {
  /** {@code /in.php}: submit a task. */
  IN,
  /** {@code /res.php}: poll, threadsinfo, getbalance, reports. */
  RES
}
