package com.captchajobs.core.client;

/**
 * A failed CaptchaAI call. Carries the error code, its {@link ErrorClass} and, when known, the task
 * id; never the API key, a token or a raw reply body.
 */
public abstract sealed class CaptchaAiException extends RuntimeException
    permits CaptchaAiApiException, CaptchaAiTransportException {

  private static final long serialVersionUID = 1L;

  private final String errorCode;
  private final ErrorClass errorClass;
  private final String taskId;

  CaptchaAiException(
      String errorCode, ErrorClass errorClass, String taskId, String detail, Throwable cause) {
    super(message(errorCode, errorClass, taskId, detail), cause);
    this.errorCode = errorCode;
    this.errorClass = errorClass;
    this.taskId = taskId;
  }

  private static String message(String code, ErrorClass errorClass, String taskId, String detail) {
    StringBuilder message = new StringBuilder(code).append(" (").append(errorClass);
    message.append(errorClass.permanent() ? ", permanent)" : ")");
    if (taskId != null) {
      message.append(" for task ").append(taskId);
    }
    if (detail != null) {
      message.append(": ").append(detail);
    }
    return message.toString();
  }

  /**
   * The provider's code (e.g. {@code ERROR_ZERO_BALANCE}) or a transport code (e.g. {@code
   * TIMEOUT}).
   */
  public String errorCode() {
    return errorCode;
  }

  /** What the code means for the caller. */
  public ErrorClass errorClass() {
    return errorClass;
  }

  /** The task the call was about, or null for submits and account calls. */
  public String taskId() {
    return taskId;
  }

  /** Whether resending the same request can never succeed. */
  public boolean permanent() {
    return errorClass.permanent();
  }
}
