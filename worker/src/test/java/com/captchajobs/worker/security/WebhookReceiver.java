package com.captchajobs.worker.security;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A webhook receiver on a real socket of 127.0.0.1, each request on a thread of its own. Its
 * hanging paths answer nothing until {@link #release()} (or five minutes).
 */
final class WebhookReceiver {

  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final CountDownLatch release = new CountDownLatch(1);
  private final HttpServer server;

  WebhookReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(threads);
  }

  /** Each request to {@code path} is noted, then hangs until {@link #release()}, then gets 204. */
  WebhookReceiver hanging(String path, Consumer<HttpExchange> note) {
    server.createContext(
        path,
        exchange -> {
          note.accept(exchange);
          try {
            release.await(5, TimeUnit.MINUTES);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    return this;
  }

  WebhookReceiver answering(String path, HttpHandler handler) {
    server.createContext(path, handler);
    return this;
  }

  WebhookReceiver start() {
    server.start();
    return this;
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** From now on every hanging request answers. */
  void release() {
    release.countDown();
  }

  void stop() {
    server.stop(0);
    threads.shutdownNow();
  }
}
