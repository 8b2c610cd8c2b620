package com.captchajobs.core;

import com.captchajobs.core.model.SolveStatus;
import java.util.UUID;

/** The solve has no token yet (it is queued, waiting for a thread or being solved). */
public final class TokenNotReadyException extends SolveException {

  private final SolveStatus status;

  public TokenNotReadyException(UUID id, SolveStatus status) {
    super(id, "solve " + id + " is " + status + ": no token yet");
    this.status = status;
  }

  public SolveStatus status() {
    return status;
  }
}
