package com.captchajobs.core.testing;

import static org.awaitility.Awaitility.await;

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
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CaptchaAI simulator as operators run it, {@code java -jar captchajobs-simulator.jar}, in its
 * own JVM. JDK only, so that a host test can run it without the simulator's Jackson 3 on its own
 * class path (a Boot 3.5 host's JobRunr would pick a Jackson 3 mapper and fail).
 */
public final class SimulatorProcess implements AutoCloseable {

  /**
   * Where the reactor leaves the runnable jar, seen from the directory of a module in one of the
   * project's groups ({@code libraries/}, {@code tests/}, {@code tools/}).
   */
  public static final Path JAR =
      Path.of("..", "..", "libraries", "simulator", "target", "captchajobs-simulator.jar");

  private static final Pattern ACCEPTED = Pattern.compile("\"acceptedSubmits\"\\s*:\\s*(\\d+)");

  private final Process process;
  private final String baseUrl;
  private final Path log;
  private final HttpClient http = HttpClient.newHttpClient();

  private SimulatorProcess(Process process, String baseUrl, Path log) {
    this.process = process;
    this.baseUrl = baseUrl;
    this.log = log;
  }

  /**
   * Starts the jar with one account and waits until its {@code /health} answers.
   *
   * @param key the account's 32-character key
   * @param threads the account's threads
   * @param timeScale multiplies every solve time
   */
  public static SimulatorProcess start(String key, int threads, double timeScale) {
    int port = freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx128m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.addAll(List.of("-jar", JAR.toAbsolutePath().toString()));
    command.add("--server.address=127.0.0.1");
    command.add("--server.port=" + port);
    command.addAll(List.of("--key", key, "--threads", Integer.toString(threads)));
    command.addAll(List.of("--time-scale", Double.toString(timeScale)));
    try {
      Path log =
          Files.createDirectories(Path.of("target", "simulator-processes"))
              .resolve("simulator-" + port + ".log");
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      SimulatorProcess simulator = new SimulatorProcess(process, "http://127.0.0.1:" + port, log);
      try {
        simulator.awaitUp(Duration.ofSeconds(60));
      } catch (RuntimeException e) {
        simulator.close();
        throw e;
      }
      return simulator;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:<port>}, for {@code captchaai.base-url}. */
  public String baseUrl() {
    return baseUrl;
  }

  /** {@code in.php} calls of this key that created a task. */
  public long acceptedSubmits(String key) {
    String stats = get("/stats?key=" + key).body();
    Matcher m = ACCEPTED.matcher(stats);
    if (!m.find()) {
      throw new IllegalStateException("no acceptedSubmits in " + stats);
    }
    return Long.parseLong(m.group(1));
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void awaitUp(Duration within) {
    await()
        .atMost(within)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new IllegalStateException("simulator exited; see " + log.toAbsolutePath());
              }
              try {
                return get("/health").statusCode() == 200;
              } catch (UncheckedIOException notListeningYet) {
                return false;
              }
            });
  }

  private HttpResponse<String> get(String path) {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
