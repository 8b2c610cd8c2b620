package com.captchajobs.simulator;

import java.util.Map;

/**
 * The parameters of one API call, merged from the query string and the body (the body wins), plus
 * the uploaded {@code file} part if any.
 *
 * @param malformedBody whether a multipart body could not be parsed
 */
record RequestParams(Map<String, String> values, FilePart file, boolean malformedBody) {

  String get(String name) {
    return values.get(name);
  }

  /** The value, or null when missing or blank. */
  String nonBlank(String name) {
    String value = values.get(name);
    return value == null || value.isBlank() ? null : value.trim();
  }

  boolean has(String name) {
    return nonBlank(name) != null;
  }

  boolean json() {
    return "1".equals(nonBlank("json"));
  }

  String key() {
    String key = values.get("key");
    return key == null ? "" : key.trim();
  }
}
