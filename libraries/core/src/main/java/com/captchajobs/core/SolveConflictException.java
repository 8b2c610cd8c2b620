package com.captchajobs.core;

import java.util.UUID;

/** The business key is already used by a solve with another payload; nothing was changed. */
public final class SolveConflictException extends SolveException {

  public SolveConflictException(String businessKey, UUID existingId) {
    super(
        existingId,
        "businessKey '%s' is already used by solve %s with a different payload"
            .formatted(businessKey, existingId));
  }
}
