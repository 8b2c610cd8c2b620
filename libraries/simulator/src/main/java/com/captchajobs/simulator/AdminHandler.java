package com.captchajobs.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.Map;

/**
 * {@code GET /stats[?key=]}, {@code GET /pushes} (the pingback log), {@code GET /requests} (the
 * request log), {@code GET /tasks} (the task records), {@code GET /spend[?key=]} (spend per key,
 * UTC day and type), {@code POST /reset}, {@code GET /health}, and 404 for the rest.
 */
final class AdminHandler implements HttpHandler {
  private final SimulatorEngine engine;

  AdminHandler(SimulatorEngine engine) {
    this.engine = engine;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    exchange.getRequestBody().transferTo(java.io.OutputStream.nullOutputStream());
    String path = exchange.getRequestURI().getPath();
    String method = exchange.getRequestMethod();
    HttpReply reply =
        switch (path) {
          case "/health" -> HttpReply.json(Json.write(Map.of("status", "UP")));
          case "/stats" -> method.equals("GET") ? stats(exchange) : notAllowed();
          case "/reset" -> method.equals("POST") ? reset() : notAllowed();
          case "/pushes" ->
              method.equals("GET") ? HttpReply.json(Json.write(engine.pushes())) : notAllowed();
          case "/requests" ->
              method.equals("GET") ? HttpReply.json(Json.write(engine.requests())) : notAllowed();
          case "/spend" -> method.equals("GET") ? spend(exchange) : notAllowed();
          case "/tasks" ->
              method.equals("GET") ? HttpReply.json(Json.write(engine.tasks())) : notAllowed();
          default ->
              new HttpReply(
                  404, "application/json", Json.write(Map.of("error", "not found: " + path)));
        };
    reply.send(exchange);
  }

  private HttpReply stats(HttpExchange exchange) {
    String key = RequestParser.parseQuery(exchange.getRequestURI().getRawQuery()).get("key");
    return HttpReply.json(Json.write(key == null ? engine.stats() : engine.stats(key)));
  }

  private HttpReply spend(HttpExchange exchange) {
    String key = RequestParser.parseQuery(exchange.getRequestURI().getRawQuery()).get("key");
    return HttpReply.json(Json.write(key == null ? engine.spend() : engine.spend(key)));
  }

  private HttpReply reset() {
    engine.reset();
    return HttpReply.json(Json.write(Map.of("status", "RESET")));
  }

  private static HttpReply notAllowed() {
    return new HttpReply(
        405, "application/json", Json.write(Map.of("error", "method not allowed")));
  }
}
