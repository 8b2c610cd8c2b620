package com.captchajobs.core;

import java.time.Instant;
import java.util.UUID;

/** The token passed its {@code expires_at} unclaimed; it is never handed out. */
public final class TokenExpiredException extends SolveException {

  public TokenExpiredException(UUID id, Instant expiresAt) {
    super(id, "the token of solve " + id + " expired at " + expiresAt);
  }
}
