package com.captchajobs.core.settings;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import java.net.InetAddress;
import java.time.Duration;

/**
 * This node's JobRunr server, the one that runs the submit and poll jobs of a worker: its name,
 * rhythm, threads and stop. Its defaults are the {@code DEFAULT_} constants here; the Spring Boot
 * starter binds it from {@code captchajobs.worker.*}. Its {@link Builder} methods describe the
 * components.
 *
 * @throws InvalidSettingException naming the builder method of a value that cannot work
 */
public record WorkerSettings(
    String name, Duration pollInterval, int workerCount, Duration shutdownWait) {

  /** The default name is this prefix, the host name and the process id. */
  public static final String DEFAULT_NAME_PREFIX = "captchajobs-";

  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);
  public static final int DEFAULT_WORKER_COUNT = 64;
  public static final Duration DEFAULT_SHUTDOWN_WAIT = Duration.ofSeconds(10);

  public WorkerSettings {
    require(name != null && !name.isBlank(), "{WorkerSettings.name(String)} must not be empty");
    require(
        pollInterval != null && pollInterval.compareTo(Duration.ofSeconds(5)) >= 0,
        "{WorkerSettings.pollInterval(Duration)} must be at least 5s"
            + " (JobRunr's minimum on SQL storage)");
    require(workerCount >= 1, "{WorkerSettings.workerCount(int)} must be at least 1");
    require(
        shutdownWait != null && !shutdownWait.isNegative(),
        "{WorkerSettings.shutdownWait(Duration)} must not be negative");
  }

  /** {@code captchajobs-<host>-<pid>}. */
  public static String defaultName() {
    return DEFAULT_NAME_PREFIX + host() + "-" + ProcessHandle.current().pid();
  }

  /** Every value at its default. */
  public static WorkerSettings defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these settings. */
  public Builder toBuilder() {
    return new Builder()
        .name(name)
        .pollInterval(pollInterval)
        .workerCount(workerCount)
        .shutdownWait(shutdownWait);
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      return "localhost";
    }
  }

  /** Every value of a {@link WorkerSettings}, each starting at its default. */
  public static final class Builder {

    private String name = defaultName();
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;
    private int workerCount = DEFAULT_WORKER_COUNT;
    private Duration shutdownWait = DEFAULT_SHUTDOWN_WAIT;

    private Builder() {}

    /** Name of this node in the gate and the dashboard; {@link #defaultName()}. */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** How often the server looks for due jobs: at least 5 s, JobRunr's SQL minimum; 5 s. */
    public Builder pollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
      return this;
    }

    /** Threads of the server; 64 (poll jobs wait in theirs, so threads are cheap). */
    public Builder workerCount(int workerCount) {
      this.workerCount = workerCount;
      return this;
    }

    /** How long a stopping server waits for running jobs before interrupting them; 10 s. */
    public Builder shutdownWait(Duration shutdownWait) {
      this.shutdownWait = shutdownWait;
      return this;
    }

    /**
     * @throws InvalidSettingException naming the builder method of a value that cannot work
     */
    public WorkerSettings build() {
      return new WorkerSettings(name, pollInterval, workerCount, shutdownWait);
    }
  }
}
