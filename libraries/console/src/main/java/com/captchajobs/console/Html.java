package com.captchajobs.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Escaping and the frame every console page shares: navigation, skip link, one main region. */
final class Html {

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'").withZone(ZoneOffset.UTC);

  /** The pages in the navigation, by path and label. */
  enum Nav {
    OVERVIEW("/console/", "Overview"),
    SOLVES("/console/solves", "Solves"),
    DEAD("/console/dead", "Dead solves"),
    NONE("", "");

    final String path;
    final String label;

    Nav(String path, String label) {
      this.path = path;
      this.label = label;
    }
  }

  private Html() {}

  /** Text for an element or an attribute value: {@code & < > " '} escaped; null is empty. */
  static String esc(Object value) {
    if (value == null) {
      return "";
    }
    String s = value.toString();
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** A query parameter value. */
  static String url(String value) {
    return URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8);
  }

  static String time(Instant at) {
    return at == null ? "" : TIME.format(at);
  }

  /** A {@code <time>} element, machine-readable and readable. */
  static String timeTag(Instant at) {
    return at == null ? "" : "<time datetime=\"" + at + "\">" + esc(time(at)) + "</time>";
  }

  static String seconds(Double s) {
    return s == null ? "–" : String.format(java.util.Locale.ROOT, "%.1f s", s);
  }

  static String since(Instant from, Instant to) {
    if (from == null || to == null) {
      return "";
    }
    Duration d = Duration.between(from, to);
    return String.format(java.util.Locale.ROOT, "+%.3f s", d.toMillis() / 1000.0);
  }

  /** The whole page around {@code main}. */
  static String page(String title, Nav current, String main, String script) {
    StringBuilder nav = new StringBuilder();
    for (Nav n : Nav.values()) {
      if (n == Nav.NONE) {
        continue;
      }
      nav.append("<li><a href=\"")
          .append(n.path)
          .append('"')
          .append(n == current ? " aria-current=\"page\"" : "")
          .append('>')
          .append(n.label)
          .append("</a></li>");
    }
    nav.append("<li><a href=\"/dashboard\">JobRunr dashboard</a></li>");
    return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>"
        + esc(title)
        + " · CaptchaJobs console</title>"
        + "<link rel=\"stylesheet\" href=\"/console/static/console.css\"></head><body>"
        + "<a class=\"skip\" href=\"#main\">Skip to content</a>"
        + "<header><span class=\"brand\">CaptchaJobs console</span>"
        + "<nav aria-label=\"Console\"><ul>"
        + nav
        + "</ul></nav></header><main id=\"main\" tabindex=\"-1\"><h1>"
        + esc(title)
        + "</h1>"
        + main
        + "</main>"
        + (script == null ? "" : "<script src=\"" + script + "\"></script>")
        + "</body></html>\n";
  }

  /** A POST form with one button; hidden fields as name/value pairs. */
  static String button(String action, String label, String cssClass, String... fields) {
    return namedButton(action, label, null, cssClass, fields);
  }

  /**
   * {@link #button}, whose accessible name adds what it acts on ({@code Requeue order-7}), so that
   * a screen reader's list of buttons tells the rows apart; the visible label starts the name.
   */
  static String namedButton(
      String action, String label, String name, String cssClass, String... fields) {
    StringBuilder f =
        new StringBuilder("<form method=\"post\" class=\"inline\" action=\"")
            .append(esc(action))
            .append("\">");
    for (int i = 0; i + 1 < fields.length; i += 2) {
      f.append("<input type=\"hidden\" name=\"")
          .append(esc(fields[i]))
          .append("\" value=\"")
          .append(esc(fields[i + 1]))
          .append("\">");
    }
    return f.append("<button type=\"submit\" class=\"")
        .append(esc(cssClass))
        .append('"')
        .append(name == null ? "" : " aria-label=\"" + esc(name) + "\"")
        .append('>')
        .append(esc(label))
        .append("</button></form>")
        .toString();
  }
}
