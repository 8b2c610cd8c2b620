package com.captchajobs.app.web;

import java.time.Duration;
import org.springframework.http.HttpStatus;

/**
 * An error answer of the REST API: status, a short title, a detail and, for bad input, the field.
 */
final class ApiProblem extends RuntimeException {

  private final HttpStatus status;
  private final String title;
  private final String field;
  private final Duration retryAfter;

  ApiProblem(HttpStatus status, String title, String field, String detail) {
    this(status, title, field, detail, null);
  }

  private ApiProblem(
      HttpStatus status, String title, String field, String detail, Duration retryAfter) {
    super(detail);
    this.status = status;
    this.title = title;
    this.field = field;
    this.retryAfter = retryAfter;
  }

  /** 429 with {@code Retry-After} (whole seconds, at least 1). */
  static ApiProblem tooMany(String detail, Duration retryAfter) {
    return new ApiProblem(
        HttpStatus.TOO_MANY_REQUESTS, "Too many requests", null, detail, retryAfter);
  }

  /** Seconds for {@code Retry-After}, or null. */
  Long retryAfterSeconds() {
    return retryAfter == null ? null : Math.max(1, (retryAfter.toMillis() + 999) / 1000);
  }

  static ApiProblem badField(String field, String detail) {
    return new ApiProblem(HttpStatus.BAD_REQUEST, "Invalid request", field, detail);
  }

  HttpStatus status() {
    return status;
  }

  String title() {
    return title;
  }

  String field() {
    return field;
  }
}
