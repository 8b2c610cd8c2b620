package com.captchajobs.app.sandbox;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * What the sandbox started (embedded PostgreSQL, the simulator), closed in reverse order. It is
 * registered as the context's first disposable bean, so it is destroyed last: after JobRunr and the
 * connection pool have let go of the database.
 */
final class SandboxParts implements DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(SandboxParts.class);

  private final Deque<AutoCloseable> parts = new ArrayDeque<>();

  synchronized void add(AutoCloseable part) {
    parts.push(part);
  }

  synchronized boolean isEmpty() {
    return parts.isEmpty();
  }

  /** Idempotent: the context's close and a failed start may both call it. */
  @Override
  public synchronized void destroy() {
    while (!parts.isEmpty()) {
      AutoCloseable part = parts.pop();
      try {
        part.close();
      } catch (Exception e) {
        log.warn("Could not stop a sandbox part: {}", e.toString());
      }
    }
  }
}
