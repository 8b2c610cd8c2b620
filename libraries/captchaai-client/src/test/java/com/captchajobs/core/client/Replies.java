package com.captchajobs.core.client;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/** Canned CaptchaAI replies and a reader for the forms the client sends. */
final class Replies {

  /** 32 characters, like a real key, and distinctive enough to grep for. */
  static final String KEY = "0123456789abcdefSECRETKEY0123456";

  private Replies() {}

  static MockResponse ok(String body) {
    return new MockResponse.Builder().code(200).body(body).build();
  }

  static MockResponse json(int status, String request) {
    return ok("{\"status\":" + status + ",\"request\":\"" + request + "\"}");
  }

  static MockResponse status(int code, String body) {
    return new MockResponse.Builder().code(code).body(body).build();
  }

  /** The decoded form fields of a recorded POST, in the order sent. */
  static Map<String, String> form(RecordedRequest request) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String pair : request.getBody().utf8().split("&")) {
      int eq = pair.indexOf('=');
      fields.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
    }
    return fields;
  }

  private static String decode(String value) {
    return URLDecoder.decode(value, StandardCharsets.UTF_8);
  }
}
