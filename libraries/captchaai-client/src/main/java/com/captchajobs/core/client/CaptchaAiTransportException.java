package com.captchajobs.core.client;

/**
 * No usable answer arrived: network failure, timeout, non-2xx status, HTML page, empty or
 * unrecognised body. Always {@link ErrorClass#TRANSIENT}: wait and repeat the same request.
 */
public final class CaptchaAiTransportException extends CaptchaAiException {

  private static final long serialVersionUID = 1L;

  /** The connection failed or broke. */
  public static final String NETWORK = "NETWORK";

  /** A connect, read or call timeout expired. */
  public static final String TIMEOUT = "TIMEOUT";

  /** A 2xx reply with no body. */
  public static final String EMPTY_BODY = "EMPTY_BODY";

  /** A 2xx reply that is neither an answer nor an error code. */
  public static final String UNRECOGNISED_BODY = "UNRECOGNISED_BODY";

  /**
   * @param errorCode one of the constants here or {@code HTTP_<status>}
   * @param detail a short summary such as "HTML page"; never a raw body, which may echo the key
   */
  public CaptchaAiTransportException(
      String errorCode, String taskId, String detail, Throwable cause) {
    super(errorCode, ErrorClass.TRANSIENT, taskId, detail, cause);
  }

  /** The code for a non-2xx status, e.g. {@code HTTP_502}. */
  public static String httpCode(int status) {
    return "HTTP_" + status;
  }
}
