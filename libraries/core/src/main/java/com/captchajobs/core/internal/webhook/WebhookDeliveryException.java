package com.captchajobs.core.internal.webhook;

/**
 * A delivery that did not get a 2xx answer: the job fails and JobRunr retries it with backoff. The
 * message names the solve, the HTTP status and the callback's host, never the secret or token. It
 * carries no stack trace and keeps no cause (the message names the cause's type): JobRunr stores
 * the failure in the job's record at every attempt, and a trace would add kilobytes each time.
 */
public final class WebhookDeliveryException extends RuntimeException {

  public WebhookDeliveryException(String message) {
    super(message, null, false, false);
  }
}
