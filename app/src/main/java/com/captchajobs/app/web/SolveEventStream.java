package com.captchajobs.app.web;

import com.captchajobs.core.Solves;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One server-sent event stream of a solve: an event named {@code status} with the solve's view as
 * JSON now and on every status change, then the stream ends after a final status. Notifications
 * only trigger a re-read of the row on an executor, so a slow client never blocks the node's
 * notification thread and statuses are sent in order, the latest winning.
 */
final class SolveEventStream {

  private final Solves solves;
  private final UUID id;
  private final SseEmitter emitter;
  private final ExecutorService executor;
  private final Runnable release;
  private SolveStatus lastSent;
  private boolean done;
  private AutoCloseable subscription;

  private SolveEventStream(
      Solves solves, UUID id, Duration timeout, ExecutorService executor, Runnable release) {
    this.solves = solves;
    this.id = id;
    this.emitter = new SseEmitter(timeout.toMillis());
    this.executor = executor;
    this.release = release;
  }

  /**
   * Opens the stream; the caller has checked that the solve exists and is its client's, and holds a
   * stream slot that {@code release} gives back when the stream ends.
   */
  static SseEmitter open(
      Solves solves, UUID id, Duration timeout, ExecutorService executor, Runnable release) {
    SolveEventStream stream = new SolveEventStream(solves, id, timeout, executor, release);
    try {
      stream.start();
    } catch (RuntimeException e) {
      stream.stop();
      throw e;
    }
    return stream.emitter;
  }

  private void start() {
    emitter.onCompletion(this::stop);
    emitter.onTimeout(this::stop);
    emitter.onError(e -> stop());
    subscription = solves.watch(id, status -> schedule());
    schedule();
  }

  /** A re-read on the bounded pool; when its queue is full the stream ends (clients reconnect). */
  private void schedule() {
    try {
      executor.execute(this::sendCurrent);
    } catch (RejectedExecutionException e) {
      emitter.complete();
      stop();
    }
  }

  private synchronized void sendCurrent() {
    if (done) {
      return;
    }
    SolveStatusView view = solves.find(id).orElse(null);
    if (view == null || view.status() == lastSent) {
      return;
    }
    try {
      emitter.send(
          SseEmitter.event()
              .name("status")
              .id(view.status().name())
              .data(view, MediaType.APPLICATION_JSON));
      lastSent = view.status();
      if (view.isFinal()) {
        emitter.complete();
        stop();
      }
    } catch (IOException | IllegalStateException e) {
      // The client went away: the container completes the emitter.
      stop();
    }
  }

  private synchronized void stop() {
    done = true;
    release.run();
    if (subscription != null) {
      try {
        subscription.close();
      } catch (Exception ignored) {
        // removing a map entry does not fail
      }
    }
  }
}
