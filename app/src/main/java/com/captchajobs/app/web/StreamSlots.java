package com.captchajobs.app.web;

import com.captchajobs.node.security.ApiClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts open server-sent event streams per client ({@code max-streams} of the client) and on the
 * node ({@code captchajobs.api.max-streams}).
 */
final class StreamSlots {

  private final int nodeMax;
  private final AtomicInteger open = new AtomicInteger();
  private final Map<String, AtomicInteger> byClient = new ConcurrentHashMap<>();

  StreamSlots(int nodeMax) {
    this.nodeMax = nodeMax;
  }

  /** A slot for one stream, or null when the client or the node holds as many as it may. */
  Runnable tryOpen(ApiClient client) {
    AtomicInteger mine = byClient.computeIfAbsent(client.name(), n -> new AtomicInteger());
    if (mine.incrementAndGet() > client.maxStreams()) {
      mine.decrementAndGet();
      return null;
    }
    if (open.incrementAndGet() > nodeMax) {
      open.decrementAndGet();
      mine.decrementAndGet();
      return null;
    }
    AtomicInteger released = new AtomicInteger();
    return () -> {
      if (released.getAndIncrement() == 0) {
        mine.decrementAndGet();
        open.decrementAndGet();
      }
    };
  }

  int open() {
    return open.get();
  }
}
