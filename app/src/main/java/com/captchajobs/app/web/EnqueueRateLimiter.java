package com.captchajobs.app.web;

import com.captchajobs.node.security.ApiClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Two token buckets per client on this node: {@code rate} enqueues per second refill its enqueue
 * bucket up to {@code burst}, and {@code read-rate} reads (status reads, claims, event streams
 * opened) refill its read bucket up to {@code read-burst}. The limits are per node: behind a load
 * balancer over n app nodes a client may reach n times its rates.
 */
final class EnqueueRateLimiter {

  private final Clock clock;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  EnqueueRateLimiter(Clock clock) {
    this.clock = clock;
  }

  private static final class Bucket {
    private double tokens;
    private long lastNanos;

    Bucket(double tokens, long now) {
      this.tokens = tokens;
      this.lastNanos = now;
    }
  }

  /** Takes one enqueue from the client's bucket; when it is empty, how long until one is there. */
  Optional<Duration> tryAcquire(ApiClient client) {
    return take("enqueue:" + client.name(), client.rate(), client.burst());
  }

  /**
   * Takes one read from the client's read bucket; when it is empty, how long until one is there.
   */
  Optional<Duration> tryAcquireRead(ApiClient client) {
    return take("read:" + client.name(), client.readRate(), client.readBurst());
  }

  private Optional<Duration> take(String key, double rate, int burst) {
    long now = clock.millis() * 1_000_000L;
    Bucket b = buckets.computeIfAbsent(key, n -> new Bucket(burst, now));
    synchronized (b) {
      double elapsed = Math.max(0, now - b.lastNanos) / 1e9;
      b.tokens = Math.min(burst, b.tokens + elapsed * rate);
      b.lastNanos = now;
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return Optional.empty();
      }
      double wait = (1 - b.tokens) / rate;
      return Optional.of(Duration.ofMillis((long) Math.ceil(wait * 1000)));
    }
  }
}
