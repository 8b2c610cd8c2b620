package com.captchajobs.core.model;

/** Where a report on a solve's answer is on its way to the provider. */
public enum ReportDelivery {
  /** Recorded; a worker sends it soon, or retries after a transient error. */
  PENDING,
  /** A worker is sending it now. */
  SENDING,
  /** The provider recorded it. */
  SENT,
  /** The provider refused it (an unknown task, a rejected key); it is not sent again. */
  FAILED,
  /**
   * It may have reached the provider without an answer (a timeout, or a worker that died while
   * sending); it is never sent again, so that no report reaches the provider twice.
   */
  UNCERTAIN
}
