package com.captchajobs.simulator;

/**
 * One pingback as the simulator handled it, for tests and the bench: pushes are recorded beside the
 * tasks so that accounting can be done from the provider's side. Instants are epoch milliseconds on
 * the simulator's clock. Neither the answer nor the URL (it carries a secret) is recorded.
 *
 * @param taskId the task whose answer (or error code) was pushed
 * @param event {@link #SENT} (the first delivery), {@link #DUPLICATE} (a second delivery of the
 *     same push), {@link #DROPPED} (the push was lost on purpose and never sent) or {@link
 *     #UNREGISTERED} (registration is required and the URL's host was not registered: never sent)
 * @param readyAt when the task's answer became ready
 * @param at when the push was sent (or, for a dropped one, when it would have been)
 * @param status the receiver's HTTP status; 0 when none came (dropped, or the call failed)
 * @param error whether the push carried an error code rather than an answer
 */
public record PushRecord(
    long taskId, String event, long readyAt, long at, int status, boolean error) {

  /** A first delivery. */
  public static final String SENT = "SENT";

  /** A second delivery of a push that was sent already. */
  public static final String DUPLICATE = "DUPLICATE";

  /** A push to a host the account had not registered (registration required): never sent. */
  public static final String UNREGISTERED = "UNREGISTERED";

  /** A push lost on purpose: it was never sent. */
  public static final String DROPPED = "DROPPED";
}
