package com.captchajobs.bench;

import java.util.List;
import java.util.Map;

/**
 * What the harness needs of the app node: store solves, receive the provider's pushes, and say when
 * each enqueue returned. {@link AppNode} runs it in the bench's own JVM through the Java API;
 * {@link RestAppNode} is the real app node ({@code app/target/captchajobs-app.jar}) in its own JVM,
 * reached over sockets through {@code POST /api/solves}.
 */
interface AppSide extends AutoCloseable {

  /**
   * The base URL workers give as {@code captchaai.pingback-url}; null when the node receives no
   * pushes.
   */
  String pingbackUrl();

  /** When each enqueue returned, by business key, on the harness's clock (the simulator's). */
  Map<String, Long> enqueuedAt();

  /**
   * When each enqueue was sent, by business key, on the same clock, in the order they were sent
   * (empty when the node does not record it).
   */
  Map<String, Long> sentAt();

  /** Stores one request; true when it was created. */
  boolean enqueue(AppNode.Request r);

  /** Stores every request over {@code parallelism} threads; returns how many were created. */
  int enqueueAll(List<AppNode.Request> requests, int parallelism);

  /** The node's own JVM, for its CPU and memory; null when it is the bench's JVM. */
  default Long pid() {
    return null;
  }

  @Override
  void close();
}
