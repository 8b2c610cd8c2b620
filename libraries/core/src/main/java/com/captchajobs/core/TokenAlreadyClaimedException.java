package com.captchajobs.core;

import java.util.UUID;

/** The token was handed out before: a token is claimed at most once. */
public final class TokenAlreadyClaimedException extends SolveException {

  public TokenAlreadyClaimedException(UUID id) {
    super(id, "the token of solve " + id + " was already claimed");
  }
}
