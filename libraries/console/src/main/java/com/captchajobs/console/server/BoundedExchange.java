package com.captchajobs.console.server;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a request body only as far as {@link DashboardLimits#maxBody}, under the body deadline,
 * before anything else sees it: a longer body, declared ({@code Content-Length}) or sent ({@code
 * chunked}), is answered 413 and its connection closed, without reading what was declared. The
 * handlers behind it read the body from memory, so no handler ever reads from the socket.
 */
final class BoundedExchange extends Filter {

  private final DashboardLimits limits;
  private final ExchangeDeadlines deadlines;
  private final Refusals refusals;

  BoundedExchange(DashboardLimits limits, ExchangeDeadlines deadlines, Refusals refusals) {
    this.limits = limits;
    this.deadlines = deadlines;
    this.refusals = refusals;
  }

  @Override
  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
    long declared = declaredLength(exchange);
    if (declared > limits.maxBody()) {
      refuse(exchange);
      return;
    }
    deadlines.arm(limits.bodyDeadline());
    try {
      byte[] body = readAtMost(exchange.getRequestBody(), limits.maxBody() + 1);
      if (body.length > limits.maxBody()) {
        refuse(exchange); // still under the deadline: closing drains a little of the rest
        return;
      }
      exchange.setStreams(new ByteArrayInputStream(body), null);
    } finally {
      deadlines.disarm();
    }
    chain.doFilter(exchange);
  }

  /** The declared length; -1 for none (or chunked), Long.MAX_VALUE for one that is not a number. */
  private static long declaredLength(HttpExchange exchange) {
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    if (length == null) {
      return -1;
    }
    try {
      return Long.parseLong(length.strip());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  private static byte[] readAtMost(InputStream in, int max) throws IOException {
    byte[] buffer = new byte[Math.min(max, 4096)];
    int n = 0;
    while (n < max) {
      if (n == buffer.length) {
        buffer = Arrays.copyOf(buffer, Math.min(max, buffer.length * 2));
      }
      int read = in.read(buffer, n, buffer.length - n);
      if (read < 0) {
        break;
      }
      n += read;
    }
    return Arrays.copyOf(buffer, n);
  }

  private void refuse(HttpExchange exchange) throws IOException {
    refusals.note(Refusals.Reason.BODY_TOO_LARGE);
    Answers.closing(exchange, 413, "request body too large\n");
  }

  @Override
  public String description() {
    return "reads at most a small request body, under a deadline";
  }

  /** Short plain-text answers that end the connection, the request body unread. */
  static final class Answers {

    private Answers() {}

    static void closing(HttpExchange exchange, int status, String text) throws IOException {
      byte[] body = text.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
      exchange.getResponseHeaders().set("Connection", "close");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    }
  }
}
