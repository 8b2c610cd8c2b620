package com.captchajobs.core.client;

/** CaptchaAI answered with an error code; its class says whether to retry. */
public final class CaptchaAiApiException extends CaptchaAiException {

  private static final long serialVersionUID = 1L;

  /** The class is looked up with {@link ErrorClass#of(String)}. */
  public CaptchaAiApiException(String errorCode, String taskId) {
    super(errorCode, ErrorClass.of(errorCode), taskId, null, null);
  }
}
