package com.captchajobs.core;

import java.util.UUID;

/**
 * What the {@link Solves} API throws. Each subtype is one situation a caller handles differently;
 * messages name the solve (and the field, for bad requests), never a token or the API key.
 */
public abstract sealed class SolveException extends RuntimeException
    permits InvalidSolveRequestException,
        SolveConflictException,
        SolveNotFoundException,
        TokenNotReadyException,
        TokenAlreadyClaimedException,
        TokenExpiredException,
        SolveFailedException,
        SolveTimeoutException,
        ReportNotAcceptedException {

  private final UUID solveId;

  SolveException(UUID solveId, String message) {
    super(message);
    this.solveId = solveId;
  }

  /** The solve concerned, or null when none was stored (a bad request). */
  public UUID solveId() {
    return solveId;
  }
}
