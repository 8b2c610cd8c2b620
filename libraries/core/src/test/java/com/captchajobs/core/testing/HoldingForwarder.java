package com.captchajobs.core.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An HTTP forwarder on 127.0.0.1 in front of the simulator that can hold the next res.php {@code
 * get} for a while before passing it on: a request that the provider receives later than it was
 * sent, what a busy machine, a slow network or a proxy does to a call.
 */
public final class HoldingForwarder implements AutoCloseable {

  private final HttpServer server;
  private final HttpClient client = HttpClient.newHttpClient();
  private final String target;
  private final AtomicReference<Duration> holdNextGet = new AtomicReference<>();

  public HoldingForwarder(String targetBaseUrl) {
    this.target = targetBaseUrl.endsWith("/") ? targetBaseUrl : targetBaseUrl + "/";
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::forward);
    server.start();
  }

  /** The base URL to give the client instead of the simulator's. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  /** The next res.php get reaches the simulator {@code hold} after it reached this forwarder. */
  public void holdNextGet(Duration hold) {
    holdNextGet.set(hold);
  }

  private void forward(com.sun.net.httpserver.HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String path = exchange.getRequestURI().getRawPath().replaceFirst("^/", "");
      String query = exchange.getRequestURI().getRawQuery();
      String form = new String(body, java.nio.charset.StandardCharsets.UTF_8);
      boolean get =
          path.endsWith("res.php")
              && ((query != null && query.contains("action=get&"))
                  || (query != null && query.endsWith("action=get"))
                  || form.contains("action=get&")
                  || form.endsWith("action=get"));
      Duration hold = get ? holdNextGet.getAndSet(null) : null;
      if (hold != null) {
        Thread.sleep(hold.toMillis()); // the delay under test, not a synchronisation
      }
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(target + path + (query == null ? "" : "?" + query)));
      String type = exchange.getRequestHeaders().getFirst("Content-Type");
      if (type != null) {
        request.header("Content-Type", type);
      }
      request.method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
      HttpResponse<byte[]> response =
          client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      response
          .headers()
          .firstValue("Content-Type")
          .ifPresent(v -> exchange.getResponseHeaders().set("Content-Type", v));
      byte[] answer = response.body();
      exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
