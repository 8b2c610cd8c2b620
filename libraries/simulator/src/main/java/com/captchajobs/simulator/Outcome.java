package com.captchajobs.simulator;

/** How a task ends once its solve time has passed. */
enum Outcome {
  SOLVED(null),
  UNSOLVABLE("ERROR_CAPTCHA_UNSOLVABLE"),
  PROXY_FAILED("ERROR_PROXY_CONNECTION_FAILED");

  /** The res.php error code, null when solved. */
  final String errorCode;

  Outcome(String errorCode) {
    this.errorCode = errorCode;
  }
}
