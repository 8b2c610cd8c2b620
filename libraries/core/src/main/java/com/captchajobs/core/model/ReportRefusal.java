package com.captchajobs.core.model;

/** Why a report on a solve's answer was refused; nothing changed. */
public enum ReportRefusal {
  /** The token was not claimed: the solve is not solved yet, failed, or expired unclaimed. */
  NOT_CLAIMED,
  /** The solve was reported before: a solve is reported once. */
  ALREADY_REPORTED,
  /** The claim is older than the report window ({@code captchajobs.report-window}). */
  WINDOW_PASSED
}
