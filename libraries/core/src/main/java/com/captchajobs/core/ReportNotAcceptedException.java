package com.captchajobs.core;

import java.util.UUID;

/**
 * A report on a solve's answer was not recorded, and nothing changed: the token was not claimed
 * (yet, or ever), the solve was reported before, or its claim is older than the report window.
 */
public final class ReportNotAcceptedException extends SolveException {

  /** Why the report was refused. */
  public enum Reason {
    /** The token was not claimed: the solve is not solved yet, failed, or expired unclaimed. */
    NOT_CLAIMED,
    /** The solve was reported before: a solve is reported once. */
    ALREADY_REPORTED,
    /** The claim is older than the report window ({@code captchajobs.report-window}). */
    WINDOW_PASSED
  }

  private final Reason reason;

  public ReportNotAcceptedException(UUID id, Reason reason) {
    super(id, message(id, reason));
    this.reason = reason;
  }

  private static String message(UUID id, Reason reason) {
    return switch (reason) {
      case NOT_CLAIMED -> "solve " + id + " cannot be reported: its token was not claimed";
      case ALREADY_REPORTED -> "solve " + id + " was already reported";
      case WINDOW_PASSED ->
          "solve " + id + " cannot be reported any more: its claim is older than the report window";
    };
  }

  public Reason reason() {
    return reason;
  }
}
