package com.captchajobs.simulator;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small {@code multipart/form-data} parser: text fields go into the value map, the part named
 * {@code file} (with a filename) becomes the upload. Throws {@link IllegalArgumentException} when
 * the body does not follow the boundary structure.
 */
final class MultipartParser {
  private static final Pattern DISPOSITION_PARAM =
      Pattern.compile("(?i)(?:^|;)\\s*(name|filename)\\s*=\\s*(?:\"([^\"]*)\"|([^;\\s]*))");
  private static final byte[] CRLFCRLF = {'\r', '\n', '\r', '\n'};

  private MultipartParser() {}

  /** Adds the text fields to {@code values}; returns the file part or null. */
  static FilePart parse(byte[] body, String boundary, Map<String, String> values) {
    byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    byte[] nextDelimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    int pos = indexOf(body, delimiter, 0);
    if (pos < 0) {
      throw new IllegalArgumentException("no multipart boundary in body");
    }
    FilePart file = null;
    while (true) {
      pos += delimiter.length;
      if (startsWith(body, pos, new byte[] {'-', '-'})) {
        return file;
      }
      if (!startsWith(body, pos, new byte[] {'\r', '\n'})) {
        throw new IllegalArgumentException("boundary not followed by CRLF");
      }
      int headerEnd = indexOf(body, CRLFCRLF, pos + 2);
      if (headerEnd < 0) {
        throw new IllegalArgumentException("part without header end");
      }
      String headers = new String(body, pos + 2, headerEnd - pos - 2, StandardCharsets.UTF_8);
      int contentStart = headerEnd + CRLFCRLF.length;
      int contentEnd = indexOf(body, nextDelimiter, contentStart);
      if (contentEnd < 0) {
        throw new IllegalArgumentException("part without closing boundary");
      }
      byte[] content = Arrays.copyOfRange(body, contentStart, contentEnd);
      FilePart part = addPart(headers, content, values);
      if (part != null && (file == null || "file".equals(part.name()))) {
        file = part;
      }
      pos = contentEnd + 2;
    }
  }

  private static FilePart addPart(String headers, byte[] content, Map<String, String> values) {
    String name = null;
    String filename = null;
    for (String line : headers.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon < 0 || !line.substring(0, colon).trim().equalsIgnoreCase("Content-Disposition")) {
        continue;
      }
      Matcher m = DISPOSITION_PARAM.matcher(line.substring(colon + 1));
      while (m.find()) {
        String value = m.group(2) != null ? m.group(2) : m.group(3);
        if (m.group(1).equalsIgnoreCase("name")) {
          name = value;
        } else {
          filename = value;
        }
      }
    }
    if (name == null) {
      throw new IllegalArgumentException("part without a name");
    }
    if (filename != null) {
      return new FilePart(name, filename, content);
    }
    values.put(name, new String(content, StandardCharsets.UTF_8));
    return null;
  }

  static String boundary(String contentType) {
    for (String param : contentType.split(";")) {
      String p = param.trim();
      if (p.regionMatches(true, 0, "boundary=", 0, 9)) {
        String b = p.substring(9).trim();
        return b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"")
            ? b.substring(1, b.length() - 1)
            : b;
      }
    }
    throw new IllegalArgumentException("multipart content type without boundary");
  }

  private static boolean startsWith(byte[] body, int at, byte[] prefix) {
    if (at + prefix.length > body.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (body[at + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] body, byte[] needle, int from) {
    outer:
    for (int i = Math.max(0, from); i <= body.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (body[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
