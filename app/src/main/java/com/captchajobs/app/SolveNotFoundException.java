package com.captchajobs.app;

import java.util.UUID;

/** No solve has this id. */
public final class SolveNotFoundException extends SolveException {

  public SolveNotFoundException(UUID id) {
    super(id, "no solve with id " + id);
  }
}
