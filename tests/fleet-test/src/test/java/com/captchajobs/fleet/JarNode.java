package com.captchajobs.fleet;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A node started as operators start it, {@code java -jar <jar> <args>}, in its own JVM, with its
 * settings in the environment. Its ports are free ones: {@code args} is asked for its arguments
 * with a fresh set of ports each launch, so a port taken by another process between the check and
 * the bind (other test JVMs run beside this one) costs a relaunch, not the test (as the worker's
 * {@code WorkerProcess} does).
 */
final class JarNode implements AutoCloseable {

  /** Ports a node takes: {@code server.port}, {@code management.server.port}, one spare. */
  record Ports(int server, int management, int spare) {}

  /** Environment variables of the test's own JVM that must not reach a node. */
  private static final List<String> FOREIGN_PREFIXES =
      List.of("SPRING_", "CAPTCHAAI_", "CAPTCHAJOBS_");

  private static final int PORT_RACE_RETRIES = 3;

  private final Path jar;
  private final Function<Ports, List<String>> args;
  private final Map<String, String> env;
  private final Path log;
  private Process process;
  private Ports ports;
  private int relaunches;

  private JarNode(Path jar, Function<Ports, List<String>> args, Map<String, String> env, Path log) {
    this.jar = jar;
    this.args = args;
    this.env = env;
    this.log = log;
    launch();
  }

  /** Starts {@code jar} with the arguments {@code args} gives for its ports, in {@code env}. */
  static JarNode start(
      String name, Path jar, Function<Ports, List<String>> args, Map<String, String> env) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar.toAbsolutePath().normalize() + " is missing: build it first (./mvnw package)");
    }
    try {
      Path dir = Files.createDirectories(Path.of("target", "readme-fleet"));
      return new JarNode(jar, args, env, dir.resolve(name + ".log"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void launch() {
    ports = new Ports(freePort(), freePort(), freePort());
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // JVM options only, to keep three JVMs light on a small machine; no node setting
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-jar");
    command.add(jar.toAbsolutePath().normalize().toString());
    command.addAll(args.apply(ports));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().keySet().removeIf(k -> FOREIGN_PREFIXES.stream().anyMatch(k::startsWith));
    builder.environment().putAll(env);
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Ports ports() {
    return ports;
  }

  /** Waits until {@code /actuator/health} on the management port (open) answers UP. */
  JarNode awaitUp() {
    HttpClient http = HttpClient.newHttpClient();
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              if (!process.isAlive()) {
                if (relaunchedAfterAPortRace()) {
                  return false;
                }
                throw new IllegalStateException(
                    jar.getFileName() + " exited " + process.exitValue() + ":\n" + logTail());
              }
              try {
                HttpResponse<String> r =
                    http.send(
                        HttpRequest.newBuilder(
                                URI.create(
                                    "http://127.0.0.1:" + ports.management() + "/actuator/health"))
                            .build(),
                        HttpResponse.BodyHandlers.ofString());
                return r.statusCode() == 200 && r.body().contains("\"UP\"");
              } catch (IOException e) {
                return false;
              }
            });
    return this;
  }

  private boolean relaunchedAfterAPortRace() throws IOException {
    if (relaunches >= PORT_RACE_RETRIES
        || !Files.readString(log).contains(" is already in use (")) {
      return false;
    }
    relaunches++;
    launch();
    return true;
  }

  /** The end of the node's output, for a failure's message. */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  String log() throws IOException {
    return Files.readString(log);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
