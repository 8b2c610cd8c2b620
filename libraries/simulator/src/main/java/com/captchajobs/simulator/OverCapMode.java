package com.captchajobs.simulator;

/** What {@code in.php} does when every thread of the key is busy. */
public enum OverCapMode {
  /**
   * Reject with {@code ERROR_ZERO_BALANCE} ("You don't have free threads"), as CaptchaAI documents.
   */
  ZERO_BALANCE,
  /** Reject with {@code ERROR_NO_SLOT_AVAILABLE}, as some CaptchaAI guides describe. */
  NO_SLOT_AVAILABLE,
  /** Accept silently and start solving when a thread frees; queued tasks hold no thread. */
  QUEUE
}
