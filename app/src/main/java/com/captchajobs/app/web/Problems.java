package com.captchajobs.app.web;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** RFC 9457 problem details, the one error shape of the API. */
final class Problems {

  private Problems() {}

  static ProblemDetail of(
      HttpStatus status, String title, String field, String detail, String instance) {
    ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
    p.setTitle(title);
    if (instance != null) {
      p.setInstance(URI.create(instance));
    }
    if (field != null) {
      p.setProperty("field", field);
    }
    return p;
  }
}
