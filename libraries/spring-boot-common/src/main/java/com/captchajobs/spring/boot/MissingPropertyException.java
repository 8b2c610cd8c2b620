package com.captchajobs.spring.boot;

/** A node lacks a property it cannot run without; the message names it and how to set it. */
public class MissingPropertyException extends IllegalStateException {

  private final String property;

  public MissingPropertyException(String property, String message) {
    super(message);
    this.property = property;
  }

  /** The missing property's name. */
  public String property() {
    return property;
  }
}
