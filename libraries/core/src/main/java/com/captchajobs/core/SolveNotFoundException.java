package com.captchajobs.core;

import java.util.UUID;

/** No solve has this id. */
public final class SolveNotFoundException extends SolveException {

  public SolveNotFoundException(UUID id) {
    super(id, "no solve with id " + id);
  }
}
