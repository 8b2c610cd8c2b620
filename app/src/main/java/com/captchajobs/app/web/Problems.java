package com.captchajobs.app.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

/** RFC 9457 problem details, the one error shape of the API. */
final class Problems {

  private static final JsonMapper JSON = JsonMapper.builder().build();

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

  /** For filters, which answer before Spring MVC's message converters are involved. */
  static void write(
      HttpServletResponse response,
      HttpStatus status,
      String title,
      String field,
      String detail,
      String instance)
      throws IOException {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "about:blank");
    body.put("title", title);
    body.put("status", status.value());
    body.put("detail", detail);
    body.put("instance", instance);
    if (field != null) {
      body.put("field", field);
    }
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.setCharacterEncoding("UTF-8");
    response.getWriter().write(JSON.writeValueAsString(body));
  }
}
