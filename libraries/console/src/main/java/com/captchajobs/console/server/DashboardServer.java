package com.captchajobs.console.server;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
 * server.address}, else loopback; JobRunr's own server binds every interface) and refuses
 * cross-site requests.
 *
 * <p>A browser that holds the dashboard's basic-auth credentials sends them with any request a
 * foreign page makes it send, so every request that can change something (any method but GET, HEAD
 * and OPTIONS: requeue, delete, trigger) must come from the dashboard's own pages: a {@code
 * Sec-Fetch-Site} other than {@code same-origin} or {@code none}, or an {@code Origin} whose host
 * and port are not the request's {@code Host}, answers 403. A request with neither header does not
 * come from a browser page and is let through to basic authentication as before. A refusal reads
 * nothing of the request body. Every answer forbids framing ({@link NoFraming}).
 *
 * <p>Nothing an unauthenticated caller sends can exhaust the process ({@link DashboardLimits}): a
 * fixed number of worker threads and a bounded queue ({@link DashboardThreads}), read deadlines for
 * headers and body ({@link ExchangeDeadlines}), a small body cap ({@link BoundedExchange}), failed
 * logins throttled per client address ({@link LoginThrottle}), and refusals logged as counts once a
 * minute ({@link Refusals}). It binds loopback unless told otherwise.
 */
public final class DashboardServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DashboardServer.class);
  private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

  private final HttpServer server;
  private final DashboardThreads threads;
  private final ExchangeDeadlines deadlines;
  private final Refusals refusals;
  private final List<HttpExchangeHandler> handlers;

  private DashboardServer(
      HttpServer server,
      DashboardThreads threads,
      ExchangeDeadlines deadlines,
      Refusals refusals,
      List<HttpExchangeHandler> handlers) {
    this.server = server;
    this.threads = threads;
    this.deadlines = deadlines;
    this.refusals = refusals;
    this.handlers = handlers;
  }

  /**
   * Starts the dashboard with {@link DashboardLimits#DEFAULT}.
   *
   * @param address the address to bind; null or empty: loopback
   */
  public static DashboardServer start(
      StorageProvider storage,
      JsonMapper jsonMapper,
      String address,
      int port,
      String username,
      String password) {
    return start(
        storage, jsonMapper, address, port, username, password, DashboardLimits.DEFAULT, List.of());
  }

  /**
   * Starts the dashboard within the given limits, with {@code extra} handlers beside JobRunr's (the
   * operator console), each behind the same limits, basic authentication and cross-site refusal,
   * and closed with it.
   *
   * @param address the address to bind; null or empty: loopback
   * @param extra handlers served at their own context paths
   */
  public static DashboardServer start(
      StorageProvider storage,
      JsonMapper jsonMapper,
      String address,
      int port,
      String username,
      String password,
      DashboardLimits limits,
      List<? extends HttpExchangeHandler> extra) {
    StorageProvider safe = new ThreadSafeStorageProvider(storage);
    InetSocketAddress bind =
        address == null || address.isBlank()
            ? new InetSocketAddress(InetAddress.getLoopbackAddress(), port)
            : new InetSocketAddress(address.strip(), port);
    if (bind.isUnresolved()) {
      throw new IllegalArgumentException(
          "captchajobs.dashboard.address: '" + address + "' does not resolve");
    }
    HttpServer server;
    try {
      server = HttpServer.create(bind, limits.queue());
    } catch (IOException e) {
      throw new UncheckedIOException("the dashboard cannot listen on " + bind, e);
    }
    Refusals refusals = new Refusals();
    ExchangeDeadlines deadlines = new ExchangeDeadlines(refusals);
    DashboardThreads threads = new DashboardThreads(limits, deadlines, refusals);
    server.setExecutor(threads);
    LoginThrottle auth = new LoginThrottle(username, password, limits.failedLogins(), refusals);
    BoundedExchange bounded = new BoundedExchange(limits, deadlines, refusals);
    SameOrigin sameOrigin = new SameOrigin(refusals);
    NoFraming noFraming = new NoFraming();
    HttpExchangeHandler redirect = new RedirectHttpHandler("/", "/dashboard");
    HttpContext root = server.createContext(redirect.getContextPath(), redirect);
    root.getFilters().add(noFraming);
    root.getFilters().add(bounded);
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
      // user filters run before the authenticator: refused with or without the password, and a
      // cross-site refusal comes before any byte of the body is read; the framing headers come
      // first, so that every answer carries them, a refusal or a 401 included
      context.getFilters().add(noFraming);
      context.getFilters().add(sameOrigin);
      context.getFilters().add(bounded);
      handlers.add(h);
    }
    server.start();
    log.info(
        "JobRunr dashboard over CaptchaJobs' jobs at http://{}:{}/dashboard",
        server.getAddress().getAddress().getHostAddress(),
        server.getAddress().getPort());
    return new DashboardServer(server, threads, deadlines, refusals, List.copyOf(handlers));
  }

  /** The address and port it listens on. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** Requests and connections refused since start, for tests and diagnostics. */
  long refused(Refusals.Reason reason) {
    return refusals.total(reason);
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
    threads.close();
    deadlines.close();
  }

  /**
   * Forbids framing on every answer of the dashboard port: JobRunr's pages and API, the console,
   * refusals and the login challenge. A page framed by another site could make a logged-in operator
   * click requeue or delete (clickjacking). A handler that sets a CSP of its own (the console's)
   * must keep {@code frame-ancestors 'none'} in it.
   */
  static final class NoFraming extends Filter {

    static final String CSP = "frame-ancestors 'none'";

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
      exchange.getResponseHeaders().set("X-Frame-Options", "DENY");
      exchange.getResponseHeaders().set("Content-Security-Policy", CSP);
      chain.doFilter(exchange);
    }

    @Override
    public String description() {
      return "forbids framing on every answer";
    }
  }

  /** Refuses a state-changing request that a page of another site made a browser send. */
  static final class SameOrigin extends Filter {

    private final Refusals refusals;

    SameOrigin(Refusals refusals) {
      this.refusals = refusals;
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
      String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
      if (SAFE_METHODS.contains(method) || sameOrigin(exchange)) {
        chain.doFilter(exchange);
        return;
      }
      // counted, never logged one by one nor with the caller's method or path; the body is not
      // read: the connection is closed after the answer
      refusals.note(Refusals.Reason.CROSS_SITE);
      BoundedExchange.Answers.closing(exchange, 403, "cross-site request refused\n");
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
