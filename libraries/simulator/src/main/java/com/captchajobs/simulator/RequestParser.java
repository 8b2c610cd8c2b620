package com.captchajobs.simulator;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Reads an API call's parameters from the query string and a urlencoded or multipart body. */
final class RequestParser {
  static final int MAX_BODY_BYTES = 8 * 1024 * 1024;

  private RequestParser() {}

  static RequestParams parse(HttpExchange exchange) throws IOException {
    Map<String, String> values = new HashMap<>();
    parseUrlEncoded(exchange.getRequestURI().getRawQuery(), values);
    byte[] body = readBody(exchange.getRequestBody());
    if (body == null) {
      return new RequestParams(values, null, true);
    }
    if (body.length == 0) {
      return new RequestParams(values, null, false);
    }
    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    if (type.startsWith("multipart/form-data")) {
      try {
        FilePart file = MultipartParser.parse(body, MultipartParser.boundary(contentType), values);
        return new RequestParams(values, file, false);
      } catch (IllegalArgumentException e) {
        return new RequestParams(values, null, true);
      }
    }
    if (type.isEmpty() || type.startsWith("application/x-www-form-urlencoded")) {
      parseUrlEncoded(new String(body, StandardCharsets.UTF_8), values);
    }
    return new RequestParams(values, null, false);
  }

  static Map<String, String> parseQuery(String rawQuery) {
    Map<String, String> values = new HashMap<>();
    parseUrlEncoded(rawQuery, values);
    return values;
  }

  private static void parseUrlEncoded(String encoded, Map<String, String> into) {
    if (encoded == null || encoded.isEmpty()) {
      return;
    }
    for (String pair : encoded.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      into.put(name, eq < 0 ? "" : decode(pair.substring(eq + 1)));
    }
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformedEscape) {
      return s;
    }
  }

  /** The whole body, or null when it is larger than {@link #MAX_BODY_BYTES}. */
  private static byte[] readBody(InputStream in) throws IOException {
    byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
    if (body.length > MAX_BODY_BYTES) {
      in.transferTo(OutputStream.nullOutputStream());
      return null;
    }
    return body;
  }
}
