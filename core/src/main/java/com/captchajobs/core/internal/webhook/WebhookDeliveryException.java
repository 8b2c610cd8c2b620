package com.captchajobs.core.internal.webhook;

/**
 * A delivery that did not get a 2xx answer: the job fails and JobRunr retries it with backoff. The
 * message names the solve, the HTTP status and the callback's host, never the secret or token.
 */
public final class WebhookDeliveryException extends RuntimeException {

  public WebhookDeliveryException(String message) {
    super(message);
  }

  public WebhookDeliveryException(String message, Throwable cause) {
    super(message, cause);
  }
}
