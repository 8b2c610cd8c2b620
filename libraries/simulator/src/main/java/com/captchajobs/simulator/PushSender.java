package com.captchajobs.simulator;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes answers as CaptchaAI's pingback does: {@code GET <url>?id=<task id>&code=<answer>} once a
 * task submitted with {@code pingback=<url>} is done, or, as 2captcha documents it, {@code POST
 * <url>} with the form body {@code id=<task id>&code=<answer>}. Error codes are pushed too, as
 * 2captcha-style services do (unverified for CaptchaAI). With registration required, a push to a
 * host the account did not register ({@code add_pingback}) is never sent ({@link
 * PushRecord#UNREGISTERED}). Faults on purpose: a share of pushes is dropped, a share sent twice,
 * and every push may be delayed; all seeded. Each push is recorded ({@link PushRecord}) and logged
 * at INFO without its answer or URL.
 */
final class PushSender {

  private static final Logger log = LoggerFactory.getLogger(PushSender.class);

  /** How a second delivery trails the first. */
  static final Duration DUPLICATE_GAP = Duration.ofMillis(200);

  private final PushFaults faults;
  private final Random random;
  private final ScheduledExecutorService timer;
  private final SimClock clock;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<PushRecord> records = new ArrayList<>(); // guarded by this

  /**
   * The knobs of pushes: drop and duplicate probabilities, the delay after readiness, the form of
   * the call ({@code post}: {@code POST <url>} with the form body {@code id=...&code=...}, else
   * {@code GET <url>?id=...&code=...}) and whether only registered hosts get pushes.
   */
  record PushFaults(
      double drop, double duplicate, Duration delay, boolean post, boolean registration) {
    static final PushFaults NONE = new PushFaults(0, 0, Duration.ZERO, false, false);
  }

  PushSender(PushFaults faults, Random random, ScheduledExecutorService timer, SimClock clock) {
    this.faults = faults;
    this.random = random;
    this.timer = timer;
    this.clock = clock;
  }

  /**
   * Called once per task with a pingback URL, when its answer is ready (under its account lock).
   */
  void ready(
      long taskId, String url, long readyAt, String code, boolean error, boolean registered) {
    if (faults.registration() && !registered) {
      record(new PushRecord(taskId, PushRecord.UNREGISTERED, readyAt, readyAt, 0, error));
      return;
    }
    boolean drop;
    boolean twice;
    synchronized (random) {
      drop = random.nextDouble() < faults.drop();
      twice = !drop && random.nextDouble() < faults.duplicate();
    }
    long at = readyAt + faults.delay().toMillis();
    if (drop) {
      record(new PushRecord(taskId, PushRecord.DROPPED, readyAt, at, 0, error));
      return;
    }
    String form = "id=" + taskId + "&code=" + URLEncoder.encode(code, StandardCharsets.UTF_8);
    String target = faults.post() ? url : url + (url.contains("?") ? "&" : "?") + form;
    String body = faults.post() ? form : null;
    schedule(at, () -> send(taskId, target, body, readyAt, error, PushRecord.SENT));
    if (twice) {
      schedule(
          at + DUPLICATE_GAP.toMillis(),
          () -> send(taskId, target, body, readyAt, error, PushRecord.DUPLICATE));
    }
  }

  private void schedule(long at, Runnable push) {
    long delay = Math.max(0, at - clock.nowMillis());
    try {
      timer.schedule(push, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // the simulator is closing: the push is lost, as a real one may be
    }
  }

  private void send(
      long taskId, String target, String body, long readyAt, boolean error, String event) {
    long at = clock.nowMillis();
    HttpRequest request;
    try {
      HttpRequest.Builder builder =
          HttpRequest.newBuilder(URI.create(target)).timeout(Duration.ofSeconds(10));
      request =
          body == null
              ? builder.GET().build()
              : builder
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build();
    } catch (IllegalArgumentException e) {
      record(new PushRecord(taskId, event, readyAt, at, 0, error));
      return;
    }
    http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .whenComplete(
            (response, failure) ->
                record(
                    new PushRecord(
                        taskId,
                        event,
                        readyAt,
                        at,
                        response == null ? 0 : response.statusCode(),
                        error)));
  }

  private void record(PushRecord r) {
    synchronized (this) {
      records.add(r);
    }
    log.info(
        "pingback task={} event={} readyAt={} at={} status={} error={}",
        r.taskId(),
        r.event(),
        r.readyAt(),
        r.at(),
        r.status(),
        r.error());
  }

  synchronized List<PushRecord> records() {
    return List.copyOf(records);
  }

  synchronized void clear() {
    records.clear();
  }
}
