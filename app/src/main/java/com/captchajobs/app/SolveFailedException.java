package com.captchajobs.app;

import java.util.UUID;

/**
 * The solve ended FAILED with a classified error: {@code errorClass} is one of credential,
 * request, image, proxy, unsolvable, threads, transient; {@code errorCode} the provider's code.
 */
public final class SolveFailedException extends SolveException {

  private final String errorCode;
  private final String errorClass;

  public SolveFailedException(UUID id, String errorCode, String errorClass) {
    super(id, "solve " + id + " failed: " + errorCode + " (" + errorClass + ")");
    this.errorCode = errorCode;
    this.errorClass = errorClass;
  }

  public String errorCode() {
    return errorCode;
  }

  public String errorClass() {
    return errorClass;
  }
}
