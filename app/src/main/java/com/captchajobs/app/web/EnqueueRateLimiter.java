package com.captchajobs.app.web;

import com.captchajobs.node.security.ApiClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One token bucket per client on this node: {@code rate} enqueues per second refill it up to {@code
 * burst}. The limit is per node: behind a load balancer over n app nodes a client may reach n times
 * its rate.
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
    long now = clock.millis() * 1_000_000L;
    Bucket b = buckets.computeIfAbsent(client.name(), n -> new Bucket(client.burst(), now));
    synchronized (b) {
      double elapsed = Math.max(0, now - b.lastNanos) / 1e9;
      b.tokens = Math.min(client.burst(), b.tokens + elapsed * client.rate());
      b.lastNanos = now;
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return Optional.empty();
      }
      double wait = (1 - b.tokens) / client.rate();
      return Optional.of(Duration.ofMillis((long) Math.ceil(wait * 1000)));
    }
  }
}
