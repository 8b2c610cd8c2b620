package com.captchajobs.worker.engine;

import java.util.UUID;

/**
 * Ends a job for good: {@link PermanentErrorRetryFilter} sends a job that throws it straight to
 * FAILED, where the JobRunr dashboard lists it as a dead job. Carries the error code and class,
 * never the API key or a token.
 */
public final class PermanentSolveException extends RuntimeException {

  private final String errorCode;
  private final String errorClass;

  public PermanentSolveException(UUID solveId, String errorCode, String errorClass) {
    super(errorCode + " (" + errorClass + ") for solve " + solveId);
    this.errorCode = errorCode;
    this.errorClass = errorClass;
  }

  /** For JobRunr, which rebuilds a failed job's exception from its stored message. */
  public PermanentSolveException(String message) {
    super(message);
    this.errorCode = message.split(" ", 2)[0];
    this.errorClass = null;
  }

  public String errorCode() {
    return errorCode;
  }

  public String errorClass() {
    return errorClass;
  }
}
