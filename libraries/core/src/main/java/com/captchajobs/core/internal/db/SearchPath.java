package com.captchajobs.core.internal.db;

import java.util.ArrayList;
import java.util.List;

/**
 * A connection's {@code search_path} read the way PostgreSQL reads it: entries separated by commas,
 * an unquoted name folded to lower case ({@code CAPTCHAJOBS} is schema {@code captchajobs}), a
 * quoted one taken as written ({@code "CAPTCHAJOBS"} is another schema, {@code ""} inside quotes is
 * one quote), and {@code $user} (quoted or not) standing for the session's user name, unfolded.
 */
final class SearchPath {

  private static final String USER = "$user";

  private SearchPath() {}

  /** One entry: the schema it names, and whether it came from {@code $user}. */
  record Entry(String schema, boolean viaUser) {}

  /** The schemas {@code searchPath} names for {@code user}, in order. */
  static List<Entry> schemas(String searchPath, String user) {
    List<Entry> entries = new ArrayList<>();
    for (String raw : split(searchPath)) {
      String entry = raw.strip();
      if (entry.isEmpty()) {
        continue;
      }
      String name = identifier(entry);
      boolean viaUser = name.equals(USER);
      entries.add(new Entry(viaUser ? user : name, viaUser));
    }
    return entries;
  }

  /** The first entry that resolves to {@code schema}, or null when none does. */
  static Entry reaching(String searchPath, String user, String schema) {
    for (Entry entry : schemas(searchPath, user)) {
      if (entry.schema().equals(schema)) {
        return entry;
      }
    }
    return null;
  }

  /** Splits on commas outside double quotes. */
  private static List<String> split(String searchPath) {
    List<String> parts = new ArrayList<>();
    StringBuilder part = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < searchPath.length(); i++) {
      char c = searchPath.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      }
      if (c == ',' && !quoted) {
        parts.add(part.toString());
        part.setLength(0);
      } else {
        part.append(c);
      }
    }
    parts.add(part.toString());
    return parts;
  }

  /**
   * A quoted identifier without its quotes ({@code ""} is one quote); an unquoted one in lower
   * case, as PostgreSQL folds it (ASCII letters only).
   */
  private static String identifier(String entry) {
    if (entry.length() >= 2 && entry.startsWith("\"") && entry.endsWith("\"")) {
      return entry.substring(1, entry.length() - 1).replace("\"\"", "\"");
    }
    StringBuilder folded = new StringBuilder(entry.length());
    for (int i = 0; i < entry.length(); i++) {
      char c = entry.charAt(i);
      folded.append(c >= 'A' && c <= 'Z' ? Character.toLowerCase(c) : c);
    }
    return folded.toString();
  }
}
