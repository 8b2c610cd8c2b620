package com.captchajobs.app.web;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The REST API of the app node, under {@code captchajobs.api.*}; its clients and tokens are {@code
 * ApiClientsProperties} of the node security.
 */
@ConfigurationProperties("captchajobs.api")
public class ApiProperties {

  /** Largest request body accepted; larger ones get 413. */
  private DataSize maxBodySize = DataSize.ofKilobytes(256);

  /** How long a server-sent event stream stays open without reaching a final status. */
  private Duration eventsTimeout = Duration.ofMinutes(5);

  /** Server-sent event streams this node holds open at most, all clients together. */
  private int maxStreams = 1000;

  /** Threads that send server-sent events (a bounded pool shared by every stream). */
  private int eventsThreads = 8;

  /** Rejects bad values naming the key. */
  public void validate() {
    if (maxBodySize == null || maxBodySize.toBytes() < 1024) {
      throw new IllegalStateException("captchajobs.api.max-body-size must be at least 1KB");
    }
    if (eventsTimeout == null || eventsTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalStateException("captchajobs.api.events-timeout must be at least 1s");
    }
    if (maxStreams < 0) {
      throw new IllegalStateException("captchajobs.api.max-streams must not be negative");
    }
    if (eventsThreads < 1) {
      throw new IllegalStateException("captchajobs.api.events-threads must be at least 1");
    }
  }

  @Override
  public String toString() {
    return "ApiProperties[maxBodySize=" + maxBodySize + ", eventsTimeout=" + eventsTimeout + "]";
  }

  public DataSize getMaxBodySize() {
    return maxBodySize;
  }

  public void setMaxBodySize(DataSize maxBodySize) {
    this.maxBodySize = maxBodySize;
  }

  public Duration getEventsTimeout() {
    return eventsTimeout;
  }

  public void setEventsTimeout(Duration eventsTimeout) {
    this.eventsTimeout = eventsTimeout;
  }

  public int getMaxStreams() {
    return maxStreams;
  }

  public void setMaxStreams(int maxStreams) {
    this.maxStreams = maxStreams;
  }

  public int getEventsThreads() {
    return eventsThreads;
  }

  public void setEventsThreads(int eventsThreads) {
    this.eventsThreads = eventsThreads;
  }
}
