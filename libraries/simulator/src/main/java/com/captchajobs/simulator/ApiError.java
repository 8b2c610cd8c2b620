package com.captchajobs.simulator;

/** Ends request processing with a CaptchaAI error code; cheap, carries no stack trace. */
final class ApiError extends RuntimeException {
  final String code;

  ApiError(String code) {
    super(code, null, false, false);
    this.code = code;
  }
}
