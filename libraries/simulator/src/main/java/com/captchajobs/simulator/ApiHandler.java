package com.captchajobs.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Serves {@code /in.php} and {@code /res.php}: parses, applies this call's fault, renders. */
final class ApiHandler implements HttpHandler {
  static final Duration HANG_TIME = Duration.ofMinutes(5);
  private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);

  private final SimulatorEngine engine;
  private final ScheduledExecutorService timer;
  private final Duration slowDelay;
  private final Set<HttpExchange> hanging = ConcurrentHashMap.newKeySet();

  ApiHandler(SimulatorEngine engine, ScheduledExecutorService timer, Duration slowDelay) {
    this.engine = engine;
    this.timer = timer;
    this.slowDelay = slowDelay;
  }

  @Override
  public void handle(HttpExchange exchange) {
    long startedNanos = System.nanoTime();
    Endpoint endpoint =
        exchange.getRequestURI().getPath().startsWith("/in.php") ? Endpoint.IN : Endpoint.RES;
    RequestParams params;
    try {
      params = RequestParser.parse(exchange);
    } catch (IOException e) {
      log.debug("Could not read request: {}", e.toString());
      exchange.close();
      return;
    }
    Fault fault = engine.nextFault(endpoint);
    String action = params.get("action");
    if (fault == null
        && endpoint == Endpoint.RES
        && engine.reportAnswersLost()
        && ("reportbad".equals(action) || "reportgood".equals(action))) {
      fault = Fault.LOST_RESPONSE; // recorded by the service, then a gateway's 502
    }
    long at = engine.nowMillis();
    long[] createdTask = {0};
    Response response;
    try {
      response = respond(exchange, endpoint, params, fault, createdTask);
    } catch (RuntimeException e) {
      log.error("Simulator failure on {}", exchange.getRequestURI().getPath(), e);
      response = new Response("SIMULATOR_FAILURE", () -> HttpReply.html(500).send(exchange));
    }
    String outcome = response.outcome();
    // logged before the reply leaves: whoever got the reply finds the call in the log
    engine.logRequest(
        new RequestRecord(
            at,
            endpoint == Endpoint.IN ? RequestRecord.IN : RequestRecord.RES,
            endpoint == Endpoint.IN ? null : params.nonBlank("action"),
            fingerprint(params.key()),
            endpoint == Endpoint.IN ? createdTask[0] : numericId(params.nonBlank("id")),
            outcome,
            fault == null ? null : fault.name()));
    response.send().run();
    if (log.isDebugEnabled()) {
      log.debug(
          "{} {} method={} action={} key={} fault={} -> {} ({} ms)",
          exchange.getRequestMethod(),
          endpoint == Endpoint.IN ? "in.php" : "res.php",
          params.get("method"),
          params.get("action"),
          fingerprint(params.key()),
          fault,
          outcome,
          (System.nanoTime() - startedNanos) / 1_000_000);
    }
  }

  private static long numericId(String id) {
    if (id == null || id.length() > 18 || !id.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return 0;
    }
    return Long.parseLong(id);
  }

  /** What a call answered (its outcome for the log) and how its reply is sent. */
  private record Response(String outcome, Runnable send) {}

  private Response respond(
      HttpExchange exchange, Endpoint endpoint, RequestParams p, Fault fault, long[] createdTask) {
    if (fault == null
        || fault == Fault.PLAIN_TEXT
        || fault == Fault.SLOW
        || fault == Fault.LOST_RESPONSE) {
      String clientIp = clientIp(exchange);
      ApiAnswer answer =
          endpoint == Endpoint.IN ? engine.submit(p, clientIp) : engine.result(p, clientIp);
      if (endpoint == Endpoint.IN && !answer.isError() && answer.request() != null) {
        createdTask[0] = numericId(String.valueOf(answer.request()));
      }
      HttpReply reply =
          fault == Fault.LOST_RESPONSE
              ? HttpReply.html(502)
              : render(answer, p.json() && fault != Fault.PLAIN_TEXT);
      return new Response(
          answer.outcome(),
          fault == Fault.SLOW
              ? () -> sendLater(exchange, reply, slowDelay)
              : () -> reply.send(exchange));
    }
    engine.recordFaulted(endpoint, p, fault);
    Runnable send =
        switch (fault) {
          case HTML_502 -> () -> HttpReply.html(502).send(exchange);
          case HTML_500 -> () -> HttpReply.html(500).send(exchange);
          case EMPTY_BODY -> () -> HttpReply.text("").send(exchange);
          case SERVER_ERROR, INTERNAL_SERVER_ERROR, RATE_LIMIT -> {
            HttpReply reply = render(ApiAnswer.error(SimulatorEngine.faultCode(fault)), p.json());
            yield () -> reply.send(exchange);
          }
          case HANG -> () -> hang(exchange);
          // before any header: the connection is closed without reply
          case RESET -> exchange::close;
          default -> throw new IllegalStateException("unhandled fault " + fault);
        };
    return new Response("FAULT", send);
  }

  private static HttpReply render(ApiAnswer answer, boolean json) {
    String body = answer.render(json);
    return json || answer.bare() != null ? HttpReply.json(body) : HttpReply.text(body);
  }

  private void sendLater(HttpExchange exchange, HttpReply reply, Duration delay) {
    try {
      timer.schedule(() -> reply.send(exchange), delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      exchange.close();
    }
  }

  private void hang(HttpExchange exchange) {
    hanging.add(exchange);
    Runnable release =
        () -> {
          if (hanging.remove(exchange)) {
            exchange.close();
          }
        };
    try {
      timer.schedule(release, HANG_TIME.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      release.run();
    }
  }

  /** Ends every hanging call by closing its connection. */
  void releaseHanging() {
    for (HttpExchange exchange : hanging) {
      if (hanging.remove(exchange)) {
        exchange.close();
      }
    }
  }

  /** The client's IP; honours X-Forwarded-For so that tests can act as several clients. */
  static String clientIp(HttpExchange exchange) {
    String forwarded = exchange.getRequestHeaders().getFirst("X-Forwarded-For");
    if (forwarded != null && !forwarded.isBlank()) {
      return forwarded.split(",")[0].trim();
    }
    return exchange.getRemoteAddress().getAddress().getHostAddress();
  }

  /** Never log a key: its first four characters are enough to tell keys apart. */
  static String fingerprint(String key) {
    if (key == null || key.isEmpty()) {
      return "(none)";
    }
    return key.length() <= 8 ? "(" + key.length() + " chars)" : key.substring(0, 4) + "…";
  }
}
