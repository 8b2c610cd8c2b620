package com.captchajobs.core;

/** A request field is missing or invalid; nothing was stored. The message starts with the field. */
public final class InvalidSolveRequestException extends SolveException {

  private final String field;

  public InvalidSolveRequestException(String field, String problem) {
    super(null, field + " " + problem);
    this.field = field;
  }

  /** Our name of the offending field, e.g. {@code pageUrl}. */
  public String field() {
    return field;
  }
}
