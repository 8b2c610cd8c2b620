package com.captchajobs.worker.testing;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.node.EngineParts;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.WorkerApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** A real worker node (Spring Boot, JobRunr, HTTP on a free port) inside the test JVM. */
public final class WorkerNode implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** Bearer token of the operator client every test node has ({@code ops}). */
  public static final String OPERATOR_TOKEN = "test-operator-token-0123456789";

  /**
   * Spring Boot's logging system is one per JVM: a context closing clears what a context starting
   * at the same moment has just put in it ("Unable to find Spring Environment in logger context").
   * Test methods that run side by side therefore start and close their nodes one at a time.
   */
  private static final Object LIFECYCLE = new Object();

  private final ConfigurableApplicationContext context;

  private WorkerNode(ConfigurableApplicationContext context) {
    this.context = context;
  }

  /** Starts a worker with the given properties on top of test defaults. */
  public static WorkerNode start(
      String jdbcUrl, String baseUrl, String apiKey, Map<String, String> extra) {
    return start(jdbcUrl, baseUrl, apiKey, extra, new Class<?>[0]);
  }

  /**
   * A worker on a fresh database of the embedded PostgreSQL, calling {@code simulator} with {@code
   * apiKey}: the set-up most engine tests share.
   */
  public static WorkerNode onFreshDatabase(
      CaptchaAiSimulator simulator,
      String apiKey,
      Map<String, String> extra,
      Class<?>... configurations) {
    return start(
        EmbeddedPostgresSupport.newDatabase(), simulator.baseUrl(), apiKey, extra, configurations);
  }

  /** Like {@link #start(String, String, String, Map)}, with extra configuration classes. */
  public static WorkerNode start(
      String jdbcUrl,
      String baseUrl,
      String apiKey,
      Map<String, String> extra,
      Class<?>... configurations) {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put("spring.datasource.url", jdbcUrl);
    props.put("captchaai.base-url", baseUrl);
    props.put("captchaai.api-key", apiKey);
    props.put("server.port", "0");
    props.put("server.address", "127.0.0.1");
    props.put("management.server.port", "0");
    props.put("management.server.address", "127.0.0.1");
    props.put("captchajobs.api.clients.ops.token", OPERATOR_TOKEN);
    props.put("captchajobs.api.clients.ops.roles", "operator");
    props.put("captchajobs.worker.enabled", "true");
    props.put("spring.datasource.hikari.maximum-pool-size", "20");
    // connections open as the node needs them, not twenty at its start (each is a PostgreSQL
    // process)
    props.put("spring.datasource.hikari.minimum-idle", "2");
    props.putAll(extra);
    synchronized (LIFECYCLE) {
      return new WorkerNode(
          new SpringApplicationBuilder(WorkerApplication.class)
              .sources(configurations)
              .properties(WorkerApplication.defaults())
              .properties(props)
              .run());
    }
  }

  /** A bean of the node's context, or else a part of its CaptchaJobs engine. */
  public <T> T bean(Class<T> type) {
    if (context.getBeanProvider(type).getIfAvailable() != null) {
      return context.getBean(type);
    }
    return EngineParts.find(context.getBean(CaptchaJobs.class), type)
        .orElseThrow(
            () -> new IllegalArgumentException("no bean or engine part " + type.getName()));
  }

  /** Enqueue, await and read rows on this node's engine. */
  public SolveProbe probe() {
    return new SolveProbe(
        bean(SolveEnqueuer.class), bean(SolveRepository.class), bean(DataSource.class));
  }

  public ConfigurableApplicationContext context() {
    return context;
  }

  public int port() {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  /** The port Actuator listens on. */
  public int managementPort() {
    return Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
  }

  /** GET on this node's management port as the operator. */
  public HttpResponse<String> get(String path) {
    return send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort() + path))
            .header("Authorization", "Bearer " + OPERATOR_TOKEN)
            .build());
  }

  /** Sends a request (build it with {@link #managementPort()} or {@link #port()}). */
  public HttpResponse<String> send(HttpRequest request) {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    synchronized (LIFECYCLE) {
      context.close();
    }
  }
}
