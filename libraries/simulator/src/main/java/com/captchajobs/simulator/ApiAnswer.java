package com.captchajobs.simulator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An API-level answer (always HTTP 200), renderable as {@code json=1} JSON or as plain text.
 *
 * @param request a String, or a Long for numeric task ids in JSON
 * @param extras fields beside {@code request} in JSON ({@code result}, {@code user_agent})
 * @param plain the plain-text form
 * @param bare a JSON object sent as-is whatever {@code json} says (threadsinfo), else null
 */
record ApiAnswer(
    int status,
    Object request,
    Map<String, Object> extras,
    String plain,
    Map<String, Object> bare) {

  static ApiAnswer ok(Object request) {
    return new ApiAnswer(1, request, Map.of(), "OK|" + request, null);
  }

  static ApiAnswer solved(Answer answer) {
    Map<String, Object> extras = new LinkedHashMap<>();
    if (answer.result() != null) {
      extras.put("result", answer.result());
      extras.put("user_agent", answer.userAgent());
    }
    return new ApiAnswer(1, answer.request(), extras, "OK|" + answer.request(), null);
  }

  /** A success whose plain form has no {@code OK|} prefix (getbalance, reports). */
  static ApiAnswer value(String value) {
    return new ApiAnswer(1, value, Map.of(), value, null);
  }

  static ApiAnswer error(String code) {
    return new ApiAnswer(0, code, Map.of(), code, null);
  }

  static ApiAnswer bareObject(Map<String, Object> object) {
    return new ApiAnswer(1, null, Map.of(), null, object);
  }

  boolean isError() {
    return status == 0 && bare == null;
  }

  String render(boolean json) {
    if (bare != null) {
      return Json.write(bare);
    }
    if (!json) {
      return plain;
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", status);
    body.put("request", request);
    body.putAll(extras);
    return Json.write(body);
  }

  /** Short form for logs: the code, or OK. */
  String outcome() {
    if (bare != null) {
      return "OK(bare)";
    }
    return status == 1 ? "OK" : String.valueOf(request);
  }
}
