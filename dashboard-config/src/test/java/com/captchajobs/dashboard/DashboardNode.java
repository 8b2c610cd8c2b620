package com.captchajobs.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;

/** The dashboard node as {@code main} builds it, in the test JVM, on free ports. */
final class DashboardNode implements AutoCloseable {

  static final String USER = "ops";
  static final String PASSWORD = "dashboardPasswordForTests";

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final ConfigurableApplicationContext context;
  private final int dashboardPort;

  private DashboardNode(ConfigurableApplicationContext context, int dashboardPort) {
    this.context = context;
    this.dashboardPort = dashboardPort;
  }

  /** Starts with test credentials unless {@code extra} overrides them. */
  static DashboardNode start(String jdbcUrl, Map<String, String> extra) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("captchajobs.dashboard.username", USER);
    props.put("captchajobs.dashboard.password", PASSWORD);
    props.putAll(extra);
    return startWith(jdbcUrl, props);
  }

  /** Starts with exactly these properties (plus database and ports). */
  static DashboardNode startWith(String jdbcUrl, Map<String, String> props) {
    int dashboardPort = freePort();
    List<String> args =
        new ArrayList<>(
            List.of(
                "--spring.datasource.url=" + jdbcUrl,
                "--server.port=0",
                "--server.address=127.0.0.1",
                "--management.server.port=0",
                "--management.server.address=127.0.0.1",
                "--captchajobs.dashboard.port=" + dashboardPort));
    props.forEach((k, v) -> args.add("--" + k + "=" + v));
    return new DashboardNode(
        DashboardApplication.application().run(args.toArray(String[]::new)), dashboardPort);
  }

  ConfigurableApplicationContext context() {
    return context;
  }

  int serverPort() {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  /** GET on the dashboard's own port, without credentials. */
  HttpResponse<String> dashboard(String path) {
    return get(dashboardPort, path, null);
  }

  /** GET on the dashboard's own port with the given basic-auth credentials. */
  HttpResponse<String> dashboard(String path, String user, String password) {
    return get(dashboardPort, path, user + ":" + password);
  }

  /** GET on the dashboard's own port with the test credentials. */
  HttpResponse<String> api(String path) {
    return dashboard(path, USER, PASSWORD);
  }

  /**
   * A request with the test credentials on the dashboard's own port, with extra headers (name,
   * value, name, value, ...).
   */
  HttpResponse<String> send(String method, String path, String... headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + dashboardPort + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The dashboard's own origin, as its pages send it. */
  String origin() {
    return "http://127.0.0.1:" + dashboardPort;
  }

  int managementPort() {
    return Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
  }

  /** GET on the management port (Actuator), anonymous. */
  HttpResponse<String> actuator(String path) {
    return get(managementPort(), path, null);
  }

  static HttpResponse<String> get(int port, String path, String userColonPassword) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (userColonPassword != null) {
      request.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString(userColonPassword.getBytes(StandardCharsets.UTF_8)));
    }
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    context.close();
  }
}
