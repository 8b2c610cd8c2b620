package com.captchajobs.core.internal.retry;

import com.captchajobs.core.client.ErrorClass;
import java.util.UUID;

/**
 * Ends a job for good: {@link PermanentErrorRetryFilter} sends a job that throws it straight to
 * FAILED, where the JobRunr dashboard lists it as a dead job. Carries the error code and class,
 * never the API key or a token.
 */
public final class PermanentSolveException extends RuntimeException {

  private final String errorCode;
  private final ErrorClass errorClass;

  public PermanentSolveException(UUID solveId, String errorCode, ErrorClass errorClass) {
    super(errorCode + " (" + errorClass.label() + ") for solve " + solveId);
    this.errorCode = errorCode;
    this.errorClass = errorClass;
  }

  /**
   * For JobRunr, which rebuilds a stored failure from its type and message. Only the type matters
   * then (it is what makes the failure permanent): code and class are not parsed back.
   */
  public PermanentSolveException(String message) {
    super(message);
    this.errorCode = null;
    this.errorClass = null;
  }

  /** The code, or null on an instance JobRunr rebuilt from storage. */
  public String errorCode() {
    return errorCode;
  }

  /** The class, or null on an instance JobRunr rebuilt from storage. */
  public ErrorClass errorClass() {
    return errorClass;
  }
}
