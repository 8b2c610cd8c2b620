package com.captchajobs.bench;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.pingback.PingbackReceiver;
import com.captchajobs.core.pingback.PingbackReceiver.PushResult;
import com.captchajobs.worker.WorkerApplication;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The app node: this JVM, with the worker's Spring context but no JobRunr background job server, so
 * it only stores solves and creates their first jobs (what an application embedding CaptchaJobs
 * does). It is started before the workers so that it runs the migrations alone. With a pingback
 * secret it also receives the provider's pushes on {@code /captchaai/pingback/**} (a small HTTP
 * server on a free loopback port, handing each push to the engine's {@link PingbackReceiver}, as
 * the app's own controller does).
 */
public final class AppNode implements AppSide {

  private final ConfigurableApplicationContext context;
  private final Solves solves;
  private final HttpServer receiver;
  private final Map<String, Long> enqueuedAt = new ConcurrentHashMap<>();
  private final java.util.function.LongSupplier clock;

  private AppNode(
      ConfigurableApplicationContext context,
      HttpServer receiver,
      java.util.function.LongSupplier clock) {
    this.context = context;
    this.clock = clock;
    this.solves = context.getBean(CaptchaJobs.class).solves();
    this.receiver = receiver;
  }

  /**
   * @param pingbackSecret the fleet's {@code captchaai.pingback-secret}, or null for no pingback
   *     endpoint (polling only)
   * @param clock stamps {@link #enqueuedAt()}: the simulator's clock, so that it lines up with the
   *     simulator's records
   */
  public static AppNode start(
      String jdbcUrl,
      String baseUrl,
      int threads,
      String pingbackSecret,
      java.util.function.LongSupplier clock) {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("spring.datasource.url", jdbcUrl);
    props.put("spring.datasource.hikari.maximum-pool-size", "8");
    props.put("captchaai.base-url", baseUrl);
    props.put("captchaai.threads", String.valueOf(threads));
    props.put("captchajobs.worker.enabled", "false");
    props.put("captchajobs.dashboard.enabled", "false");
    props.put("spring.main.banner-mode", "off");
    props.put("logging.level.root", "WARN");
    props.put("logging.level.org.jobrunr.jobs.filters.JobCreationFilters", "ERROR");
    if (pingbackSecret != null) {
      props.put("captchaai.pingback-secret", pingbackSecret);
    }
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(WorkerApplication.class)
            .web(WebApplicationType.NONE)
            .properties(props)
            .run();
    if (pingbackSecret == null) {
      return new AppNode(context, null, clock);
    }
    try {
      return new AppNode(
          context, receiver(context.getBean(CaptchaJobs.class).pingbacks().orElseThrow()), clock);
    } catch (IOException | RuntimeException e) {
      context.close();
      throw new IllegalStateException("cannot start the pingback endpoint", e);
    }
  }

  /** {@code GET /captchaai/pingback/<solve>/<submit>/<signature>?id=&code=}: 200, or 404. */
  private static HttpServer receiver(PingbackReceiver pingbacks) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
    server.createContext(
        PingbackReceiver.PATH + "/",
        exchange -> {
          try (exchange) {
            String[] parts =
                exchange
                    .getRequestURI()
                    .getPath()
                    .substring(PingbackReceiver.PATH.length() + 1)
                    .split("/");
            PushResult verdict =
                parts.length == 3
                        && ("GET".equals(exchange.getRequestMethod())
                            || "POST".equals(exchange.getRequestMethod()))
                    ? pingbacks.receive(parts[0], parts[1], parts[2])
                    : PushResult.REFUSED;
            exchange.sendResponseHeaders(verdict == PushResult.REFUSED ? 404 : 200, -1);
          } catch (RuntimeException e) {
            exchange.sendResponseHeaders(500, -1);
          }
        });
    server.setExecutor(
        Executors.newFixedThreadPool(
            4,
            r -> {
              Thread t = new Thread(r, "bench-pingback");
              t.setDaemon(true);
              return t;
            }));
    server.start();
    return server;
  }

  /**
   * The base URL workers give as {@code captchaai.pingback-url}; null when this node has no
   * pingback endpoint.
   */
  @Override
  public String pingbackUrl() {
    return receiver == null
        ? null
        : "http://127.0.0.1:" + receiver.getAddress().getPort() + PingbackReceiver.PATH;
  }

  /**
   * When each solve was stored, by business key: the harness's own clock, read when the enqueue
   * returned (the start of its wait, for the figures counted from the provider's side).
   */
  @Override
  public Map<String, Long> enqueuedAt() {
    return Map.copyOf(enqueuedAt);
  }

  @Override
  public Map<String, Long> sentAt() {
    return Map.of();
  }

  /** One solve to store: its business key, type and whether the provider must reject it. */
  public record Request(String businessKey, CaptchaType type, boolean permanent) {}

  /** Stores one request; true when it was created. */
  @Override
  public boolean enqueue(Request r) {
    boolean created =
        solves
            .accept(
                SolveRequest.of(
                    r.businessKey(),
                    r.type(),
                    TypeMix.params(r.type(), r.businessKey(), r.permanent())))
            .created();
    enqueuedAt.putIfAbsent(r.businessKey(), clock.getAsLong());
    return created;
  }

  /** Stores every request with a few threads; returns how many were created. */
  @Override
  public int enqueueAll(List<Request> requests, int parallelism) {
    ExecutorService pool = Executors.newFixedThreadPool(parallelism);
    AtomicInteger created = new AtomicInteger();
    try {
      List<Future<?>> futures =
          requests.stream()
              .map(
                  r ->
                      pool.submit(
                          () -> {
                            if (enqueue(r)) {
                              created.incrementAndGet();
                            }
                          }))
              .<Future<?>>map(f -> f)
              .toList();
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while enqueuing", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("enqueue failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdown();
    }
    return created.get();
  }

  @Override
  public void close() {
    if (receiver != null) {
      receiver.stop(0);
    }
    context.close();
  }
}
