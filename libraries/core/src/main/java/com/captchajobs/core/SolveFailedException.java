package com.captchajobs.core;

import com.captchajobs.core.client.ErrorClass;
import java.util.UUID;

/**
 * The solve ended FAILED with a classified error: {@code errorClass} is one of credential, request,
 * image, proxy, unsolvable, threads, transient; {@code errorCode} the provider's code.
 */
public final class SolveFailedException extends SolveException {

  private final String errorCode;
  private final ErrorClass errorClass;

  public SolveFailedException(UUID id, String errorCode, ErrorClass errorClass) {
    super(id, "solve " + id + " failed: " + errorCode + " (" + errorClass + ")");
    this.errorCode = errorCode;
    this.errorClass = errorClass;
  }

  public String errorCode() {
    return errorCode;
  }

  public ErrorClass errorClass() {
    return errorClass;
  }
}
