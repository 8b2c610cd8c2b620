package com.captchajobs.core;

import java.time.Duration;
import java.util.UUID;

/** The solve did not reach a final status within the caller's timeout; it goes on regardless. */
public final class SolveTimeoutException extends SolveException {

  public SolveTimeoutException(UUID id, Duration timeout) {
    super(id, "solve " + id + " did not finish within " + timeout);
  }
}
