package com.captchajobs.core;

import com.captchajobs.core.model.ReportRefusal;
import java.util.UUID;

/**
 * A report on a solve's answer was not recorded, and nothing changed: the token was not claimed
 * (yet, or ever), the solve was reported before, or its claim is older than the report window.
 */
public final class ReportNotAcceptedException extends SolveException {

  private final ReportRefusal reason;

  public ReportNotAcceptedException(UUID id, ReportRefusal reason) {
    super(id, message(id, reason));
    this.reason = reason;
  }

  private static String message(UUID id, ReportRefusal reason) {
    return switch (reason) {
      case NOT_CLAIMED -> "solve " + id + " cannot be reported: its token was not claimed";
      case ALREADY_REPORTED -> "solve " + id + " was already reported";
      case WINDOW_PASSED ->
          "solve " + id + " cannot be reported any more: its claim is older than the report window";
    };
  }

  public ReportRefusal reason() {
    return reason;
  }
}
