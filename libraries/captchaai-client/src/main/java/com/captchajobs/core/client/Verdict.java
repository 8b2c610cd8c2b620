package com.captchajobs.core.client;

/**
 * What a caller says about an answer it used: the target site rejected it ({@link #BAD}) or
 * accepted it ({@link #GOOD}). It reaches CaptchaAI as {@code res.php action=reportbad} or {@code
 * reportgood}.
 */
public enum Verdict {
  /** The answer was wrong: the target site rejected the token. */
  BAD("reportbad"),
  /** The answer was right: the target site accepted the token. */
  GOOD("reportgood");

  private final String action;

  Verdict(String action) {
    this.action = action;
  }

  /** The res.php {@code action} that reports this verdict. */
  public String action() {
    return action;
  }
}
