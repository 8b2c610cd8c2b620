package com.captchajobs.bench;

import com.captchajobs.core.pingback.PingbackReceiver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The real app node ({@code java -jar app/target/captchajobs-app.jar}) in its own JVM: a plain app
 * node (a database, no CaptchaAI key), so it only stores solves, creates their first jobs and
 * receives the provider's pushes on {@code /captchaai/pingback/**} (its own {@code
 * PingbackFilter}). The harness enqueues over sockets with single-solve {@code POST /api/solves},
 * as one client ({@value #CLIENT}) whose rate, burst and max-unfinished are set above the run, so
 * that the API never answers 429. Its bearer token and the pingback secret travel in the
 * environment only.
 */
final class RestAppNode implements AppSide {

  /** The API client the harness enqueues as. */
  static final String CLIENT = "bench";

  private final Process process;
  private final int port;
  private final String token;
  private final boolean push;
  private final LongSupplier clock;
  private final HttpClient http;
  private final Map<String, Long> enqueuedAt = new ConcurrentHashMap<>();
  private final Map<String, Long> sentAt = Collections.synchronizedMap(new LinkedHashMap<>());

  private RestAppNode(Process process, int port, String token, boolean push, LongSupplier clock) {
    this.process = process;
    this.port = port;
    this.token = token;
    this.push = push;
    this.clock = clock;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  /** Everything the node needs. */
  record Launch(
      Path appJar,
      String jdbcUrl,
      String heap,
      int poolSize,
      int maxUnfinished,
      String pingbackSecret,
      Path logDir) {}

  /** Starts the node and waits until its liveness probe answers UP (it runs the migrations). */
  static RestAppNode start(Launch launch, LongSupplier clock) {
    int port = freePort();
    int management = freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + launch.heap());
    command.add("-jar");
    command.add(launch.appJar().toString());
    command.add("--server.port=" + port);
    command.add("--server.address=127.0.0.1");
    command.add("--management.server.port=" + management);
    command.add("--management.server.address=127.0.0.1");
    command.add("--spring.datasource.url=" + launch.jdbcUrl());
    command.add("--spring.datasource.hikari.maximum-pool-size=" + launch.poolSize());
    String client = "--captchajobs.api.clients." + CLIENT + ".";
    command.add(client + "rate=1000000");
    command.add(client + "burst=1000000");
    command.add(client + "max-unfinished=" + launch.maxUnfinished());
    command.add("--logging.level.root=WARN");
    command.add("--logging.level.org.jobrunr.jobs.filters.JobCreationFilters=ERROR");
    String token = secret();
    try {
      Files.createDirectories(launch.logDir());
      Path log = launch.logDir().resolve("app.log");
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().put("CAPTCHAJOBS_API_CLIENTS_BENCH_TOKEN", token);
      if (launch.pingbackSecret() != null) {
        builder.environment().put("CAPTCHAAI_PINGBACK_SECRET", launch.pingbackSecret());
      }
      RestAppNode node =
          new RestAppNode(builder.start(), port, token, launch.pingbackSecret() != null, clock);
      try {
        node.awaitUp(management, log, Duration.ofSeconds(300));
      } catch (RuntimeException e) {
        node.close();
        throw e;
      }
      return node;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the app node " + launch.appJar(), e);
    }
  }

  private void awaitUp(int management, Path log, Duration atMost) {
    HttpRequest probe =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + management + "/actuator/health/liveness"))
            .timeout(Duration.ofSeconds(2))
            .build();
    long deadline = System.nanoTime() + atMost.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the app node exited with " + process.exitValue() + "; see " + log.toAbsolutePath());
      }
      try {
        HttpResponse<String> r = http.send(probe, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200 && r.body().contains("\"UP\"")) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the app node", e);
      }
      ProcStats.pause(Duration.ofMillis(250));
    }
    throw new IllegalStateException(
        "the app node is not UP within " + atMost + "; see " + log.toAbsolutePath());
  }

  @Override
  public String pingbackUrl() {
    return push ? "http://127.0.0.1:" + port + PingbackReceiver.PATH : null;
  }

  @Override
  public Map<String, Long> enqueuedAt() {
    return Map.copyOf(enqueuedAt);
  }

  @Override
  public Map<String, Long> sentAt() {
    synchronized (sentAt) {
      return Collections.unmodifiableMap(new LinkedHashMap<>(sentAt));
    }
  }

  @Override
  public Long pid() {
    return process.pid();
  }

  /** {@code POST /api/solves}: 202 created, 200 the same key and payload again; else it fails. */
  @Override
  public boolean enqueue(AppNode.Request r) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/solves"))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body(r)))
            .build();
    sentAt.putIfAbsent(r.businessKey(), clock.getAsLong());
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException("POST /api/solves of " + r.businessKey() + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while enqueuing", e);
    }
    if (response.statusCode() != 202 && response.statusCode() != 200) {
      throw new IllegalStateException(
          "POST /api/solves of "
              + r.businessKey()
              + " answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
    enqueuedAt.putIfAbsent(r.businessKey(), clock.getAsLong());
    return response.statusCode() == 202;
  }

  /** The request's JSON: business key, type and the type's fields flat. */
  static String body(AppNode.Request r) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("businessKey", r.businessKey());
    fields.put("type", r.type().name());
    fields.putAll(TypeMix.params(r.type(), r.businessKey(), r.permanent()));
    StringBuilder sb = new StringBuilder("{");
    fields.forEach(
        (k, v) -> {
          if (sb.length() > 1) {
            sb.append(',');
          }
          sb.append(quote(k)).append(':').append(quote(v));
        });
    return sb.append('}').toString();
  }

  private static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  /**
   * Sends every request from {@code connections} threads, each one request at a time, so at most
   * that many connections are open (HTTP/1.1 keep-alive).
   */
  @Override
  public int enqueueAll(List<AppNode.Request> requests, int connections) {
    ExecutorService pool = Executors.newFixedThreadPool(connections);
    AtomicInteger created = new AtomicInteger();
    try {
      List<Future<?>> futures = new ArrayList<>(requests.size());
      for (AppNode.Request r : requests) {
        futures.add(
            pool.submit(
                () -> {
                  if (enqueue(r)) {
                    created.incrementAndGet();
                  }
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while enqueuing", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("enqueue failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return created.get();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String secret() {
    byte[] b = new byte[24];
    new java.security.SecureRandom().nextBytes(b);
    return java.util.HexFormat.of().formatHex(b);
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
