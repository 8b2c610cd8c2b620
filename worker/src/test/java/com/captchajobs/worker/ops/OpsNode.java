package com.captchajobs.worker.ops;

import com.captchajobs.worker.WorkerApplication;
import com.captchajobs.worker.testing.WorkerNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A worker node in the test JVM whose properties are passed as command-line arguments, as an
 * operator would: {@link WorkerNode} passes them as default properties, which rank below the
 * engine's own defaults, so it cannot widen the Actuator exposure these tests need.
 */
final class OpsNode implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final ConfigurableApplicationContext context;

  private OpsNode(ConfigurableApplicationContext context) {
    this.context = context;
  }

  static OpsNode start(String jdbcUrl, String baseUrl, String apiKey, Map<String, String> extra) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("spring.datasource.url", jdbcUrl);
    props.put("captchaai.base-url", baseUrl);
    props.put("captchaai.api-key", apiKey);
    props.put("server.port", "0");
    props.put("server.address", "127.0.0.1");
    props.put("jobrunr.background-job-server.enabled", "true");
    props.putAll(extra);
    List<String> args = new ArrayList<>();
    props.forEach((k, v) -> args.add("--" + k + "=" + v));
    return new OpsNode(new SpringApplicationBuilder(WorkerApplication.class).run(args.toArray(String[]::new)));
  }

  <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  int port() {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  HttpResponse<String> get(String path) {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    context.close();
  }
}
