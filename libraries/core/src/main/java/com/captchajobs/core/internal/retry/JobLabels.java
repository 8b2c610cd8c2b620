package com.captchajobs.core.internal.retry;

/** Labels of our JobRunr jobs, as the dashboard shows and filters them. */
public final class JobLabels {

  /** JobRunr allows labels of at most 45 characters. */
  static final int MAX_LABEL = 45;

  private JobLabels() {}

  /** {@code s} as a label: cut to {@link #MAX_LABEL} characters, the cut marked with "…". */
  public static String fit(String s) {
    return s.length() <= MAX_LABEL ? s : s.substring(0, MAX_LABEL - 1) + "…";
  }
}
