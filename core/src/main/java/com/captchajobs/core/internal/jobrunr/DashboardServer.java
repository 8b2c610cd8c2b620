package com.captchajobs.core.internal.jobrunr;

import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jobrunr.dashboard.JobRunrApiHandler;
import org.jobrunr.dashboard.JobRunrSseHandler;
import org.jobrunr.dashboard.JobRunrStaticFileHandler;
import org.jobrunr.dashboard.server.HttpExchangeHandler;
import org.jobrunr.dashboard.server.http.RedirectHttpHandler;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.ThreadSafeStorageProvider;
import org.jobrunr.utils.mapper.JsonMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JobRunr's dashboard (its own handlers: pages, API, server-sent events) on a server of ours, so
 * that it binds where it is told ({@code captchajobs.dashboard.address}, else {@code
 * server.address}; JobRunr's own server binds every interface) and refuses cross-site requests.
 *
 * <p>A browser that holds the dashboard's basic-auth credentials sends them with any request a
 * foreign page makes it send, so every request that can change something (any method but GET, HEAD
 * and OPTIONS: requeue, delete, trigger) must come from the dashboard's own pages: a {@code
 * Sec-Fetch-Site} other than {@code same-origin} or {@code none}, or an {@code Origin} whose host
 * and port are not the request's {@code Host}, answers 403. A request with neither header does not
 * come from a browser page and is let through to basic authentication as before.
 */
public final class DashboardServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DashboardServer.class);
  private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

  private final HttpServer server;
  private final ExecutorService threads;
  private final List<HttpExchangeHandler> handlers;

  private DashboardServer(
      HttpServer server, ExecutorService threads, List<HttpExchangeHandler> handlers) {
    this.server = server;
    this.threads = threads;
    this.handlers = handlers;
  }

  /**
   * Starts the dashboard.
   *
   * @param address the address to bind; null or empty: every interface
   */
  public static DashboardServer start(
      StorageProvider storage,
      JsonMapper jsonMapper,
      String address,
      int port,
      String username,
      String password) {
    return start(storage, jsonMapper, address, port, username, password, List.of());
  }

  /**
   * Starts the dashboard with more handlers beside JobRunr's (the operator console), each behind
   * the same basic authentication and cross-site refusal, and closed with it.
   *
   * @param extra handlers served at their own context paths
   */
  public static DashboardServer start(
      StorageProvider storage,
      JsonMapper jsonMapper,
      String address,
      int port,
      String username,
      String password,
      List<? extends HttpExchangeHandler> extra) {
    StorageProvider safe = new ThreadSafeStorageProvider(storage);
    InetSocketAddress bind =
        address == null || address.isBlank()
            ? new InetSocketAddress(port)
            : new InetSocketAddress(address.strip(), port);
    if (bind.isUnresolved()) {
      throw new IllegalArgumentException(
          "captchajobs.dashboard.address: '" + address + "' does not resolve");
    }
    HttpServer server;
    try {
      server = HttpServer.create(bind, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("the dashboard cannot listen on " + bind, e);
    }
    ExecutorService threads =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "captchajobs-dashboard");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(threads);
    BasicAuthenticator auth = authenticator(username, password);
    HttpExchangeHandler redirect = new RedirectHttpHandler("/", "/dashboard");
    server.createContext(redirect.getContextPath(), redirect);
    List<HttpExchangeHandler> handlers = new ArrayList<>(List.of(redirect));
    List<HttpExchangeHandler> served =
        new ArrayList<>(
            List.of(
                new JobRunrStaticFileHandler(),
                new JobRunrApiHandler(safe, jsonMapper, false),
                new JobRunrSseHandler(safe, jsonMapper)));
    served.addAll(extra);
    for (HttpExchangeHandler h : served) {
      HttpContext context = server.createContext(h.getContextPath(), h);
      context.setAuthenticator(auth);
      // user filters run before the authenticator: refused with or without the password
      context.getFilters().add(new SameOrigin());
      handlers.add(h);
    }
    server.start();
    log.info(
        "JobRunr dashboard over CaptchaJobs' jobs at http://{}:{}/dashboard",
        server.getAddress().getAddress().getHostAddress(),
        server.getAddress().getPort());
    return new DashboardServer(server, threads, List.copyOf(handlers));
  }

  /** The address and port it listens on. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    for (HttpExchangeHandler h : handlers) {
      try {
        h.close();
      } catch (RuntimeException e) {
        log.debug("Closing a dashboard handler failed: {}", e.toString());
      }
    }
    server.stop(0);
    threads.shutdown();
    try {
      if (!threads.awaitTermination(2, TimeUnit.SECONDS)) {
        threads.shutdownNow();
      }
    } catch (InterruptedException e) {
      threads.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private static BasicAuthenticator authenticator(String username, String password) {
    byte[] user = username.getBytes(StandardCharsets.UTF_8);
    byte[] pass = password.getBytes(StandardCharsets.UTF_8);
    return new BasicAuthenticator("JobRunr") {
      @Override
      public boolean checkCredentials(String u, String p) {
        // both compared, in constant time, whatever the first one gave
        boolean userOk = MessageDigest.isEqual(user, u.getBytes(StandardCharsets.UTF_8));
        boolean passOk = MessageDigest.isEqual(pass, p.getBytes(StandardCharsets.UTF_8));
        return userOk & passOk;
      }
    };
  }

  /** Refuses a state-changing request that a page of another site made a browser send. */
  static final class SameOrigin extends Filter {

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
      String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
      if (SAFE_METHODS.contains(method) || sameOrigin(exchange)) {
        chain.doFilter(exchange);
        return;
      }
      log.warn(
          "Dashboard refused a cross-site {} {}", method, exchange.getRequestURI().getRawPath());
      exchange.getRequestBody().readAllBytes();
      byte[] body = "cross-site request refused\n".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
      exchange.sendResponseHeaders(403, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    }

    static boolean sameOrigin(HttpExchange exchange) {
      String site = exchange.getRequestHeaders().getFirst("Sec-Fetch-Site");
      if (site != null && !site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none")) {
        return false;
      }
      String origin = exchange.getRequestHeaders().getFirst("Origin");
      if (origin == null) {
        return true;
      }
      String host = exchange.getRequestHeaders().getFirst("Host");
      if (host == null || origin.equals("null")) {
        return false;
      }
      try {
        URI uri = URI.create(origin);
        String authority = uri.getRawAuthority();
        return authority != null && authority.equalsIgnoreCase(host.strip());
      } catch (IllegalArgumentException e) {
        return false;
      }
    }

    @Override
    public String description() {
      return "refuses cross-site requests that could change something";
    }
  }
}
