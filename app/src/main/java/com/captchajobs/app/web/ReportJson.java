package com.captchajobs.app.web;

import com.captchajobs.core.client.Verdict;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the body of {@code POST /api/solves/{id}/report}, {@code {"verdict":"BAD"}} or {@code
 * {"verdict":"GOOD"}}, naming the field at fault.
 */
final class ReportJson {

  static final String VERDICT = "verdict";

  private final JsonMapper json =
      JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  /**
   * @throws ApiProblem 400 naming the field: not JSON, not an object, verdict missing or not BAD or
   *     GOOD, or another field
   */
  Verdict read(byte[] body) {
    JsonNode root;
    try {
      root = json.readTree(body);
    } catch (JacksonException e) {
      throw ApiProblem.badField("body", "body is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw ApiProblem.badField("body", "body must be a JSON object");
    }
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      if (!VERDICT.equals(e.getKey())) {
        throw ApiProblem.badField(e.getKey(), e.getKey() + " is not a field of a report");
      }
    }
    JsonNode verdict = root.get(VERDICT);
    if (verdict == null || verdict.isNull()) {
      throw ApiProblem.badField(VERDICT, "verdict is required (BAD or GOOD)");
    }
    if (verdict.isString()) {
      for (Verdict v : Verdict.values()) {
        if (v.name().equals(verdict.stringValue())) {
          return v;
        }
      }
    }
    throw ApiProblem.badField(VERDICT, "verdict must be BAD or GOOD");
  }
}
