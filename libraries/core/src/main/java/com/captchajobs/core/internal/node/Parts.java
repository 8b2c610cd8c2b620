package com.captchajobs.core.internal.node;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's parts: those to stop, in reverse start order, and those tools and tests may look up by
 * type.
 */
public final class Parts implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Parts.class);

  private final Deque<AutoCloseable> running = new ArrayDeque<>();
  private final List<Object> inside = new ArrayList<>();

  /** Stops {@code part} when the node closes, before everything started earlier. */
  public <T extends AutoCloseable> T stopLater(T part) {
    synchronized (running) {
      running.push(part);
    }
    return part;
  }

  /** Makes {@code parts} findable by type; the first one added wins. */
  public void show(Object... parts) {
    synchronized (inside) {
      inside.addAll(List.of(parts));
    }
  }

  /** The first part of {@code type}. */
  public <T> Optional<T> find(Class<T> type) {
    synchronized (inside) {
      return inside.stream().filter(type::isInstance).map(type::cast).findFirst();
    }
  }

  /** Stops every part in reverse start order; a part that fails to stop is logged and passed. */
  @Override
  public void close() {
    synchronized (running) {
      while (!running.isEmpty()) {
        try {
          running.pop().close();
        } catch (Exception e) {
          log.warn("Could not stop a CaptchaJobs part: {}", e.toString());
        }
      }
    }
  }
}
