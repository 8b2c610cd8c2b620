package com.captchajobs.app.web;

import org.springframework.http.HttpStatus;

/**
 * An error answer of the REST API: status, a short title, a detail and, for bad input, the field.
 */
final class ApiProblem extends RuntimeException {

  private final HttpStatus status;
  private final String title;
  private final String field;

  ApiProblem(HttpStatus status, String title, String field, String detail) {
    super(detail);
    this.status = status;
    this.title = title;
    this.field = field;
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
