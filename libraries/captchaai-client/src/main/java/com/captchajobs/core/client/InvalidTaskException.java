package com.captchajobs.core.client;

/** A task field is missing, unknown or invalid; the message starts with the field name. */
public final class InvalidTaskException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String field;
  private final String problem;

  /**
   * The message is {@code field + " " + problem}, e.g. "pageUrl must be an absolute http(s) URL".
   */
  public InvalidTaskException(String field, String problem) {
    super(field + " " + problem);
    this.field = field;
    this.problem = problem;
  }

  /** Our name of the offending field, e.g. {@code pageUrl}. */
  public String field() {
    return field;
  }

  /** What is wrong with the field, the message without the field name, e.g. "is required". */
  public String problem() {
    return problem;
  }
}
