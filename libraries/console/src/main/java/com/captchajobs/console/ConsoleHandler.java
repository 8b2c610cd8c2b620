package com.captchajobs.console;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.jobrunr.dashboard.server.HttpExchangeHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the console's pages, its overview JSON, its two static files and its four actions (requeue
 * one, requeue a code after a confirmation, close a breaker, set a provider's daily budget through
 * {@link ConsoleProviders}). Authentication and the cross-site refusal come from the dashboard
 * server's filters; request bodies are read up to {@link Requests#MAX_BODY} only.
 */
final class ConsoleHandler implements HttpExchangeHandler {

  private static final Logger log = LoggerFactory.getLogger(ConsoleHandler.class);
  private static final String CSP =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
          + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private final ConsoleQueries queries;
  private final OperatorQueries operations;
  private final OperatorActions actions;
  private final Sampler sampler;
  private final ConsoleProviders providers;
  private final ObjectMapper json = JsonMapper.builder().build();
  private final AtomicReference<Instant> lastWatch = new AtomicReference<>(Instant.EPOCH);

  ConsoleHandler(
      ConsoleQueries queries,
      OperatorQueries operations,
      SolveJobs jobs,
      Sampler sampler,
      ConsoleProviders providers) {
    this.queries = queries;
    this.operations = operations;
    this.actions = new OperatorActions(queries, operations, jobs);
    this.sampler = sampler;
    this.providers = providers;
  }

  @Override
  public String getContextPath() {
    return Console.PATH;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      String path = exchange.getRequestURI().getRawPath();
      String method = exchange.getRequestMethod();
      try {
        route(exchange, method, path);
      } catch (Requests.BodyTooLargeException e) {
        send(exchange, 413, "text/plain; charset=utf-8", "request body over 16 KiB\n");
      } catch (Cursor.BadCursorException e) {
        html(
            exchange,
            400,
            Pages.outcome(
                "Bad link", "That page link is not one of this console's.", "/console/solves"));
      } catch (RuntimeException e) {
        if (Db.isCancelled(e)) {
          log.warn(
              "Console {} {} took longer than {} s and was cancelled",
              Requests.escaped(method),
              Requests.escaped(path),
              ConsoleQueries.STATEMENT_TIMEOUT.toSeconds());
          html(
              exchange,
              503,
              Pages.outcome(
                  "Too slow",
                  "The database did not answer within "
                      + ConsoleQueries.STATEMENT_TIMEOUT.toSeconds()
                      + " s (503). Try again, or narrow the filter.",
                  "/console/"));
          return;
        }
        log.warn(
            "Console {} {} failed: {}",
            Requests.escaped(method),
            Requests.escaped(path),
            Requests.escaped(e.toString()));
        send(
            exchange,
            500,
            "text/html; charset=utf-8",
            Pages.outcome(
                "Error",
                "The console could not answer: " + e.getClass().getSimpleName(),
                "/console/"));
      }
    } finally {
      exchange.close();
    }
  }

  private void route(HttpExchange ex, String method, String path) throws IOException {
    boolean get = method.equals("GET") || method.equals("HEAD");
    boolean post = method.equals("POST");
    Map<String, String> q = Requests.params(ex.getRequestURI().getRawQuery());
    if (get && path.equals("/console")) {
      ex.getResponseHeaders().set("Location", "/console/");
      send(ex, 302, "text/plain; charset=utf-8", "");
    } else if (get && path.equals("/console/")) {
      html(ex, 200, Pages.overview(overview()));
    } else if (get && path.equals("/console/api/overview")) {
      send(ex, 200, "application/json", json.writeValueAsString(overviewJson(overview())));
    } else if (get && path.equals("/console/solves")) {
      ConsoleQueries.Filter f =
          new ConsoleQueries.Filter(
              q.get("client"),
              q.get("status"),
              q.get("type"),
              q.get("batch"),
              q.get("code"),
              q.get("key"));
      Optional<Cursor> after = Cursor.decode(q.get("after"));
      html(ex, 200, Pages.solves(f, queries.solves(f, after.orElse(null)), after.isEmpty()));
    } else if (get && path.startsWith("/console/solves/")) {
      solvePage(ex, path.substring("/console/solves/".length()));
    } else if (get && path.equals("/console/dead")) {
      String code = ConsoleQueries.Filter.blankToNull(q.get("code"));
      html(
          ex,
          200,
          Pages.dead(
              queries.deadByCode(),
              code,
              code == null
                  ? null
                  : queries.deadOfCode(code, Cursor.decode(q.get("after")).orElse(null))));
    } else if (get && path.equals("/console/static/console.js")) {
      resource(ex, "console.js", "text/javascript; charset=utf-8");
    } else if (get && path.equals("/console/static/console.css")) {
      resource(ex, "console.css", "text/css; charset=utf-8");
    } else if (post && path.equals("/console/api/watch")) {
      watch(ex);
    } else if (post && path.equals("/console/dead/requeue")) {
      answer(ex, actions.requeueOne(Requests.form(ex).get("id")));
    } else if (post && path.equals("/console/dead/requeue-code")) {
      answer(ex, actions.requeueCode(Requests.form(ex)));
    } else if (post && path.equals("/console/breakers/close")) {
      answer(ex, actions.closeBreaker(Requests.form(ex).get("fingerprint")));
    } else if (post && path.equals("/console/providers/budget")) {
      answer(
          ex,
          providers.setDailyBudget(
              Requests.form(ex),
              ex.getPrincipal() == null ? null : ex.getPrincipal().getUsername()));
    } else if (post || get) {
      html(ex, 404, Pages.outcome("Not found", "No console page at this address.", "/console/"));
    } else {
      ex.getResponseHeaders().set("Allow", "GET, HEAD, POST");
      send(ex, 405, "text/plain; charset=utf-8", "method not allowed\n");
    }
  }

  private void solvePage(HttpExchange ex, String idText) throws IOException {
    UUID id;
    try {
      id = UUID.fromString(idText);
    } catch (IllegalArgumentException e) {
      html(ex, 404, Pages.outcome("Not found", "No solve has this id.", "/console/solves"));
      return;
    }
    Optional<ConsoleQueries.SolveDetail> s = queries.solve(id);
    if (s.isEmpty()) {
      html(ex, 404, Pages.outcome("Not found", "No solve has this id.", "/console/solves"));
      return;
    }
    html(ex, 200, Pages.solve(s.get(), queries.events(id)));
  }

  /**
   * The overview page's script says someone is watching: the workers read the provider's working
   * threads for the next 30 s. A POST from the console's own page only (its {@code Origin} is this
   * host, or the browser says {@code Sec-Fetch-Site: same-origin}); no GET changes anything, so a
   * foreign page's {@code <img>} cannot start threadsinfo calls. Stamped at most every 5 s.
   */
  private void watch(HttpExchange ex) throws IOException {
    if (!fromOwnPage(ex)) {
      send(ex, 403, "text/plain; charset=utf-8", "the console's own page only\n");
      return;
    }
    Instant now = Instant.now();
    Instant last = lastWatch.get();
    if (now.isAfter(last.plusSeconds(5)) && lastWatch.compareAndSet(last, now)) {
      queries.watch();
    }
    send(ex, 204, "text/plain; charset=utf-8", "");
  }

  /** Positive proof that a request comes from a page of this origin, not merely no sign against. */
  static boolean fromOwnPage(HttpExchange ex) {
    String site = ex.getRequestHeaders().getFirst("Sec-Fetch-Site");
    String origin = ex.getRequestHeaders().getFirst("Origin");
    String host = ex.getRequestHeaders().getFirst("Host");
    if (site != null && !site.equalsIgnoreCase("same-origin")) {
      return false;
    }
    if (origin == null || host == null) {
      return site != null;
    }
    int scheme = origin.indexOf("://");
    return scheme > 0 && origin.substring(scheme + 3).equalsIgnoreCase(host.strip());
  }

  Pages.Overview overview() {
    return new Pages.Overview(
        queries.gauges(),
        queries.answersByMinute(),
        queries.latency(),
        operations.breakerRows().all(),
        providers.lines(),
        queries.failuresLastHour(),
        queries.badReports());
  }

  Map<String, Object> overviewJson(Pages.Overview o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("at", o.gauges().at().toString());
    m.put("inFlight", o.gauges().inFlight());
    m.put("capacity", o.gauges().capacity());
    m.put("working", o.gauges().workingThreads());
    m.put("waiting", o.gauges().waiting());
    m.put("p50", o.latency().p50Seconds());
    m.put("p95", o.latency().p95Seconds());
    m.put("solvedIn15Min", o.latency().solves());
    ConsoleQueries.AnswersMinute last = o.lastFullMinute();
    m.put("pushLastMinute", last.push());
    m.put("pollLastMinute", last.poll());
    List<Object> samples = new ArrayList<>();
    for (ConsoleQueries.Gauges g : sampler.samples()) {
      samples.add(
          new Object[] {g.at().toEpochMilli(), g.inFlight(), g.capacity(), g.workingThreads()});
    }
    m.put("samples", samples);
    List<Object> answers = new ArrayList<>();
    for (ConsoleQueries.AnswersMinute a : o.answers()) {
      answers.add(new Object[] {a.minute().toEpochMilli(), a.push(), a.poll()});
    }
    m.put("answers", answers);
    m.put("breakersHtml", Pages.breakers(o.breakers()));
    m.put("providersHtml", ProviderTable.html(o.providers()));
    m.put("failuresHtml", Pages.failures(o.failures()));
    m.put("reportsHtml", Pages.reports(o.badReports()));
    return m;
  }

  private void resource(HttpExchange ex, String name, String type) throws IOException {
    try (InputStream in =
        ConsoleHandler.class.getResourceAsStream("/captchajobs-console/" + name)) {
      if (in == null) {
        send(ex, 404, "text/plain; charset=utf-8", "not found\n");
        return;
      }
      byte[] body = in.readAllBytes();
      ex.getResponseHeaders().set("Cache-Control", "max-age=60");
      sendBytes(ex, 200, type, body);
    }
  }

  private static void answer(HttpExchange ex, Outcome outcome) throws IOException {
    html(ex, outcome.status(), outcome.page());
  }

  private static void html(HttpExchange ex, int status, String page) throws IOException {
    ex.getResponseHeaders().set("Content-Security-Policy", CSP);
    ex.getResponseHeaders().set("X-Frame-Options", "DENY");
    ex.getResponseHeaders().set("Referrer-Policy", "same-origin");
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    send(ex, status, "text/html; charset=utf-8", page);
  }

  private static void send(HttpExchange ex, int status, String type, String body)
      throws IOException {
    sendBytes(ex, status, type, body.getBytes(StandardCharsets.UTF_8));
  }

  private static void sendBytes(HttpExchange ex, int status, String type, byte[] body)
      throws IOException {
    ex.getResponseHeaders().set("Content-Type", type);
    ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    if (!ex.getResponseHeaders().containsKey("Cache-Control")) {
      ex.getResponseHeaders().set("Cache-Control", "no-store");
    }
    boolean head = ex.getRequestMethod().equals("HEAD");
    ex.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
    if (!head && body.length > 0) {
      ex.getResponseBody().write(body);
    }
  }

  @Override
  public void close() {
    sampler.close();
  }
}
