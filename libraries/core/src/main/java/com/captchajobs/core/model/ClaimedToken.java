package com.captchajobs.core.model;

import java.time.Instant;

/**
 * A token handed out by {@code Solves.claim}: use it before {@code expiresAt}, with {@code
 * userAgent} when the provider returned one. {@link #toString()} hides the token so that it never
 * reaches a log by accident.
 */
public record ClaimedToken(String token, String userAgent, Instant expiresAt) {

  @Override
  public String toString() {
    return "ClaimedToken[token=*** (%d chars), userAgent=%s, expiresAt=%s]"
        .formatted(token == null ? 0 : token.length(), userAgent, expiresAt);
  }
}
