package com.captchajobs.worker.testing;

import static org.awaitility.Awaitility.await;

import com.captchajobs.worker.WorkerApplication;
import java.io.File;
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

/**
 * A worker node in its own JVM (the worker's main class on this test's class path), so that tests
 * can run a fleet and kill -9 one of its members.
 */
public final class WorkerProcess implements AutoCloseable {

  /** How many times a node whose free port was taken before it bound it is started again. */
  private static final int PORT_RACE_RETRIES = 3;

  private final Launcher launcher;
  private final Path log;
  private final Path jar;
  private final WorkerJarLaunch.Launch jarLaunch;
  private Process process;
  private int port;
  private int managementPort;
  private int relaunches;
  private boolean stopped;

  /** Starts the node on the given ports, its output into the log. */
  private interface Launcher {
    Process launch(int port, int managementPort) throws IOException;
  }

  private WorkerProcess(Launcher launcher, Path log, Path jar, WorkerJarLaunch.Launch jarLaunch) {
    this.launcher = launcher;
    this.log = log;
    this.jar = jar;
    this.jarLaunch = jarLaunch;
    launch();
  }

  private void launch() {
    port = freePort();
    managementPort = freePort();
    try {
      process = launcher.launch(port, managementPort);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A port found free can be taken by another process before the node binds it (other test JVMs run
   * beside this one). The node then stops at once, naming the taken port: start it again on fresh
   * ports rather than fail the test on a race of the machine.
   */
  private boolean relaunchedAfterAPortRace() throws IOException {
    if (relaunches >= PORT_RACE_RETRIES
        || !Files.exists(log)
        || !Files.readString(log).contains(" is already in use (")) {
      return false;
    }
    relaunches++;
    launch();
    return true;
  }

  /**
   * The worker node of this build: its runnable jar when the build made one from the classes on
   * this test's class path (as {@code ./mvnw verify} does, at less CPU per start: {@link
   * WorkerJarLaunch}), otherwise the worker's main class on this test's class path (as {@code
   * ./mvnw test} leaves it, or a jar older than a class compiled since).
   */
  public static WorkerProcess start(
      String name, String jdbcUrl, String baseUrl, String apiKey, Map<String, String> extra) {
    if (BuiltJar.isCurrent(BuiltJar.WORKER)) {
      return startJar(BuiltJar.WORKER, name, jdbcUrl, baseUrl, apiKey, extra);
    }
    return start(
        currentJava(),
        List.of("-cp", System.getProperty("java.class.path"), WorkerApplication.class.getName()),
        null,
        null,
        name,
        jdbcUrl,
        baseUrl,
        apiKey,
        extra);
  }

  /** The worker node as operators run it: {@code java -jar captchajobs-worker.jar}. */
  public static WorkerProcess startJar(
      Path jar,
      String name,
      String jdbcUrl,
      String baseUrl,
      String apiKey,
      Map<String, String> extra) {
    return startJar(currentJava(), jar, name, jdbcUrl, baseUrl, apiKey, extra);
  }

  /**
   * The same on another Java: {@code java} is the launcher, e.g. a JDK 25's {@code bin/java}. On
   * the Java running this test, the jar is started extracted and with a class-data archive ({@link
   * WorkerJarLaunch}); on another, as it is.
   */
  public static WorkerProcess startJar(
      Path java,
      Path jar,
      String name,
      String jdbcUrl,
      String baseUrl,
      String apiKey,
      Map<String, String> extra) {
    WorkerJarLaunch.Launch launch =
        java.equals(currentJava())
            ? WorkerJarLaunch.of(jar)
            : new WorkerJarLaunch.Launch(List.of("-jar", jar.toAbsolutePath().toString()), null);
    return start(java, launch.args(), jar, launch, name, jdbcUrl, baseUrl, apiKey, extra);
  }

  /** The {@code bin/java} of the JVM running this test. */
  public static Path currentJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  private static WorkerProcess start(
      Path java,
      List<String> launch,
      Path jar,
      WorkerJarLaunch.Launch jarLaunch,
      String name,
      String jdbcUrl,
      String baseUrl,
      String apiKey,
      Map<String, String> extra) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    // one GC thread, no concurrent marking: G1 took about 16 % more CPU per node start on 2 cores
    command.add("-XX:+UseSerialGC");
    command.addAll(launch);
    command.add("--management.server.address=127.0.0.1");
    command.add("--server.address=127.0.0.1");
    command.add("--spring.datasource.url=" + jdbcUrl);
    command.add("--captchaai.base-url=" + baseUrl);
    command.add("--captchajobs.worker.name=" + name);
    // connections open as the node needs them, not the whole pool at its start
    command.add("--spring.datasource.hikari.minimum-idle=2");
    extra.forEach((k, v) -> command.add("--" + k + "=" + v));
    Path log;
    try {
      log = Files.createDirectories(Path.of("target", "worker-processes")).resolve(name + ".log");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new WorkerProcess(
        (port, managementPort) -> {
          List<String> withPorts = new ArrayList<>(command);
          withPorts.add("--server.port=" + port);
          withPorts.add("--management.server.port=" + managementPort);
          ProcessBuilder builder =
              new ProcessBuilder(withPorts).redirectErrorStream(true).redirectOutput(log.toFile());
          // The key travels in the environment, as operators pass it; never on the command line.
          builder.environment().put("CAPTCHAAI_API_KEY", apiKey);
          return builder.start();
        },
        log,
        jar,
        jarLaunch);
  }

  /**
   * Waits until the node's health endpoint (open, on the management port) answers UP. A node that
   * never comes up is stopped before the failure is thrown: the caller never got it to close, and
   * left running it would take the CPU from the rest of the build.
   */
  public WorkerProcess awaitUp() {
    try {
      awaitHealthUp();
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
    return this;
  }

  private void awaitHealthUp() {
    HttpClient http = HttpClient.newHttpClient();
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              if (!process.isAlive()) {
                if (relaunchedAfterAPortRace()) {
                  return false;
                }
                throw new IllegalStateException("worker exited; see " + log.toAbsolutePath());
              }
              try {
                HttpResponse<String> r =
                    http.send(
                        HttpRequest.newBuilder(
                                URI.create(
                                    "http://127.0.0.1:" + managementPort + "/actuator/health"))
                            .build(),
                        HttpResponse.BodyHandlers.ofString());
                return r.statusCode() == 200 && r.body().contains("\"UP\"");
              } catch (IOException e) {
                return false;
              }
            });
  }

  /** kill -9: no shutdown hook, no graceful stop. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stopped(false);
  }

  public Process process() {
    return process;
  }

  public File log() {
    return log.toFile();
  }

  @Override
  public void close() {
    process.destroy();
    boolean cleanly = false;
    // the node writing the class-data archive writes it on the way out: give it longer
    int seconds = jarLaunch != null && jarLaunch.writes() != null ? 60 : 20;
    try {
      cleanly = process.waitFor(seconds, java.util.concurrent.TimeUnit.SECONDS);
      if (!cleanly) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stopped(cleanly);
  }

  /** Once per node (a killed node is usually closed too): keeps or drops the archive it wrote. */
  private synchronized void stopped(boolean cleanly) {
    if (jarLaunch != null && !stopped) {
      stopped = true;
      jarLaunch.stopped(jar, cleanly);
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
