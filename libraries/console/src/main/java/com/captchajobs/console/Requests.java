package com.captchajobs.console;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the console reads of a request: its query or form parameters, its body up to {@link
 * #MAX_BODY}, and any value it sent as it may appear in a log line.
 */
final class Requests {

  /** The largest request body read; a larger one is answered 413. */
  static final int MAX_BODY = 16 * 1024;

  private Requests() {}

  /**
   * A value the caller sent, as it may appear in a log line: printable ASCII but the backslash
   * kept, everything else (CR, LF, other controls, any non-ASCII) written as {@code \\uXXXX}, at
   * most 200 characters. No value can forge a line of its own or hide in one.
   */
  static String escaped(String value) {
    if (value == null) {
      return "(none)";
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < value.length() && i < 200; i++) {
      char c = value.charAt(i);
      if (c >= 0x20 && c < 0x7f && c != '\\') {
        out.append(c);
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    return value.length() > 200 ? out.append("...").toString() : out.toString();
  }

  /** The urlencoded form of a POST, read up to {@link #MAX_BODY}. */
  static Map<String, String> form(HttpExchange ex) throws IOException {
    String length = ex.getRequestHeaders().getFirst("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.strip()) > MAX_BODY) {
          throw new BodyTooLargeException();
        }
      } catch (NumberFormatException e) {
        throw new BodyTooLargeException();
      }
    }
    return params(new String(readCapped(ex.getRequestBody(), MAX_BODY), StandardCharsets.UTF_8));
  }

  static byte[] readCapped(InputStream in, int max) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    int n;
    while ((n = in.read(buf)) > 0) {
      if (out.size() + n > max) {
        throw new BodyTooLargeException();
      }
      out.write(buf, 0, n);
    }
    return out.toByteArray();
  }

  /** Form or query parameters; the first value of a name wins. */
  static Map<String, String> params(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(
            URLDecoder.decode(k, StandardCharsets.UTF_8),
            URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        // a malformed escape: the parameter is ignored
      }
    }
    return out;
  }

  /** A request body over {@link #MAX_BODY}. */
  static final class BodyTooLargeException extends RuntimeException {
    BodyTooLargeException() {
      super("request body over " + MAX_BODY + " bytes");
    }
  }
}
