package com.captchajobs.bench;

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

/**
 * One worker node in its own JVM: the worker jar ({@code java -jar}) or, without it, the worker's
 * main class on this JVM's class path. The API key goes through the environment only. Its CPU time
 * and peak RSS are read from /proc while it lives, so a killed node keeps its last reading.
 */
public final class WorkerJvm implements AutoCloseable {

  /** The worker's main class, for the class-path launch. */
  static final String MAIN_CLASS = "com.captchajobs.worker.WorkerApplication";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final Process process;
  private final int port;
  private final int managementPort;
  private final Path log;
  private volatile ProcStats.Reading last = ProcStats.Reading.NONE;
  private volatile boolean killed;
  private final long startedAt = System.currentTimeMillis();
  private volatile long endedAt;

  private WorkerJvm(String name, Process process, int port, int managementPort, Path log) {
    this.name = name;
    this.process = process;
    this.port = port;
    this.managementPort = managementPort;
    this.log = log;
  }

  /**
   * Everything a worker needs besides its name.
   *
   * @param jvmArgs further JVM options, e.g. a class-data archive ({@link WorkerCds})
   * @param env further environment variables, e.g. another provider's key ({@code
   *     CAPTCHAJOBS_PROVIDERS_<NAME>_APIKEY}): keys go by the environment only
   */
  public record Launch(
      Path workerJar,
      List<String> jvmArgs,
      String jdbcUrl,
      String baseUrl,
      String apiKey,
      int threads,
      int workerCount,
      int poolSize,
      String heap,
      Map<String, String> props,
      Path logDir,
      Map<String, String> env) {

    public Launch {
      jvmArgs = List.copyOf(jvmArgs);
      env = Map.copyOf(env);
    }

    /** The same launch from another worker jar, with these JVM options. */
    Launch from(Path jar, List<String> options) {
      return new Launch(
          jar,
          options,
          jdbcUrl,
          baseUrl,
          apiKey,
          threads,
          workerCount,
          poolSize,
          heap,
          props,
          logDir,
          env);
    }
  }

  public static WorkerJvm start(String name, Launch launch) {
    int port = freePort();
    int managementPort = freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + launch.heap());
    command.add("-Xss512k");
    command.addAll(launch.jvmArgs());
    if (launch.workerJar() != null) {
      command.add("-jar");
      command.add(launch.workerJar().toString());
    } else {
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add(MAIN_CLASS);
      command.add("--captchajobs.worker.enabled=true");
    }
    command.add("--server.port=" + port);
    command.add("--server.address=127.0.0.1");
    // the node's Actuator has its own port (8091 by default): one per JVM here
    command.add("--management.server.port=" + managementPort);
    command.add("--management.server.address=127.0.0.1");
    command.add("--spring.datasource.url=" + launch.jdbcUrl());
    command.add("--spring.datasource.hikari.maximum-pool-size=" + launch.poolSize());
    command.add("--captchaai.base-url=" + launch.baseUrl());
    command.add("--captchaai.threads=" + launch.threads());
    command.add("--captchajobs.worker.name=" + name);
    command.add("--captchajobs.worker.worker-count=" + launch.workerCount());
    command.add("--logging.level.com.captchajobs=WARN");
    // the engine's own lines (task ids as stored, repairs, deadlines), for reading a run by hand;
    // no figure is counted from them (the judging figures come from the simulator)
    command.add("--logging.level.com.captchajobs.core.internal.engine=INFO");
    command.add("--logging.level.org.jobrunr=WARN");
    launch.props().forEach((k, v) -> command.add("--" + k + "=" + v));
    try {
      Files.createDirectories(launch.logDir());
      Path log = launch.logDir().resolve(name + ".log");
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      // The key travels in the environment, as operators pass it; never on the command line.
      builder.environment().put("CAPTCHAAI_API_KEY", launch.apiKey());
      builder.environment().putAll(launch.env());
      return new WorkerJvm(name, builder.start(), port, managementPort, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start worker " + name, e);
    }
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public boolean alive() {
    return process.isAlive();
  }

  public boolean killed() {
    return killed;
  }

  /** Seconds between start and kill or stop (or now). */
  public double aliveSeconds() {
    return ((endedAt == 0 ? System.currentTimeMillis() : endedAt) - startedAt) / 1000.0;
  }

  /**
   * Blocks until the node's liveness probe (open, on its management port) answers UP, or fails
   * naming its log. Liveness, not health: during a provider outage a started node is live but not
   * ready.
   */
  public WorkerJvm awaitUp(Duration atMost) {
    long deadline = System.nanoTime() + atMost.toNanos();
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/liveness"))
            .timeout(Duration.ofSeconds(2))
            .build();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "worker "
                + name
                + " exited with "
                + process.exitValue()
                + "; see "
                + log.toAbsolutePath());
      }
      try {
        HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200 && r.body().contains("\"UP\"")) {
          return this;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + name, e);
      }
      ProcStats.pause(Duration.ofMillis(250));
    }
    throw new IllegalStateException(
        "worker " + name + " not UP within " + atMost + "; see " + log.toAbsolutePath());
  }

  /** Waits for the process to end on its own; its exit code, or -1 when it did not in time. */
  int awaitExit(Duration atMost) {
    try {
      return process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** The node's log file. */
  Path log() {
    return log;
  }

  /** Reads CPU time and peak RSS from /proc (kept when the process is gone). */
  public ProcStats.Reading sample() {
    if (process.isAlive()) {
      ProcStats.Reading r = ProcStats.read(process.pid());
      // a process being reaped has no VmHWM line any more: keep the peak seen
      if (r != ProcStats.Reading.NONE) {
        last =
            new ProcStats.Reading(
                Math.max(r.cpuSeconds(), last.cpuSeconds()),
                Math.max(r.peakRssMiB(), last.peakRssMiB()));
      }
    }
    return last;
  }

  /** kill -9: no shutdown hook, no graceful stop. */
  public void kill() {
    sample();
    killed = true;
    endedAt = System.currentTimeMillis();
    process.destroyForcibly();
    waitFor(10);
  }

  @Override
  public void close() {
    sample();
    if (endedAt == 0) {
      endedAt = System.currentTimeMillis();
    }
    process.destroy();
    if (!waitFor(20)) {
      process.destroyForcibly();
      waitFor(10);
    }
  }

  private boolean waitFor(int seconds) {
    try {
      return process.waitFor(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
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
