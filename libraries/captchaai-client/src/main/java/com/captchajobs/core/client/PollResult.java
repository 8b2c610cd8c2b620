package com.captchajobs.core.client;

/** The outcome of polling a task that did not fail: still pending, or solved. */
public sealed interface PollResult {

  /** {@code CAPCHA_NOT_READY}: poll again later. */
  record NotReady() implements PollResult {}

  /**
   * The answer. {@code userAgent} is set when the provider bound the token to a browser identity
   * (Enterprise, Cloudflare Challenge), else null. {@link #toString()} hides the token.
   */
  record Solved(String token, String userAgent) implements PollResult {

    /** Requires a non-empty token. */
    public Solved {
      if (token == null || token.isEmpty()) {
        throw new IllegalArgumentException("token must not be empty");
      }
    }

    @Override
    public String toString() {
      return "Solved[token=(" + token.length() + " chars), userAgent=" + userAgent + "]";
    }
  }
}
