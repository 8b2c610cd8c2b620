package com.captchajobs.core.model;

/**
 * The life of a solve: what the engine stores in a solve's row and what the Java and REST APIs
 * show, one type for both.
 */
public enum SolveStatus {
  /** Stored, its submit job created; about to take a slot and call in.php. */
  QUEUED,
  /** No free thread in the fleet's cap: parked until a slot is handed to it. */
  WAITING_FOR_THREAD,
  /** in.php accepted it; the provider task id is stored and polls are scheduled. */
  SUBMITTED,
  /** The token is stored and can be claimed once until it expires. */
  SOLVED,
  /** The token was handed out. */
  CLAIMED,
  /** The token expired before anyone claimed it. */
  EXPIRED,
  /** Ended with a classified error (the row holds its code and class). */
  FAILED;

  /** Whether nothing more will happen to the solve. */
  public boolean isFinal() {
    return this == SOLVED || this == CLAIMED || this == EXPIRED || this == FAILED;
  }
}
