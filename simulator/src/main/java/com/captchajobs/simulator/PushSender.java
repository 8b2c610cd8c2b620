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
 * task submitted with {@code pingback=<url>} is done. Error codes are pushed too, as 2captcha-style
 * services do (unverified for CaptchaAI). Faults on purpose: a share of pushes is dropped, a share
 * sent twice, and every push may be delayed; all seeded. Each push is recorded ({@link PushRecord})
 * and logged at INFO without its answer or URL.
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

  /** The knobs of pushes: drop and duplicate probabilities, and the delay after readiness. */
  record PushFaults(double drop, double duplicate, Duration delay) {
    static final PushFaults NONE = new PushFaults(0, 0, Duration.ZERO);
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
  void ready(long taskId, String url, long readyAt, String code, boolean error) {
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
    String target =
        url
            + (url.contains("?") ? "&" : "?")
            + "id="
            + taskId
            + "&code="
            + URLEncoder.encode(code, StandardCharsets.UTF_8);
    schedule(at, () -> send(taskId, target, readyAt, error, PushRecord.SENT));
    if (twice) {
      schedule(
          at + DUPLICATE_GAP.toMillis(),
          () -> send(taskId, target, readyAt, error, PushRecord.DUPLICATE));
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

  private void send(long taskId, String target, long readyAt, boolean error, String event) {
    long at = clock.nowMillis();
    HttpRequest request;
    try {
      request =
          HttpRequest.newBuilder(URI.create(target)).timeout(Duration.ofSeconds(10)).GET().build();
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
