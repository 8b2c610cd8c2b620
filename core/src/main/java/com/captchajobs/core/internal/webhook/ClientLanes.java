package com.captchajobs.core.internal.webhook;

import com.captchajobs.core.internal.retry.Jitter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.StateName;

/**
 * Fair shares of one node's delivery threads: each API client may have at most {@code perClient}
 * deliveries in flight here ({@code captchajobs.webhook.threads-per-client}), so the receivers of
 * one client that hang hold only its own share and the other threads stay free for everyone else.
 *
 * <p>The share is taken when JobRunr fetches a delivery (its election to PROCESSING, before any
 * thread runs it). A delivery over its client's share is not run: it goes back to SCHEDULED a
 * moment later (through DELETED, the only way out of PROCESSING that is not a failure, so it uses
 * none of the delivery's retries), and the fetch is repeated at once, so that a backlog of one
 * client never stands in front of another client's delivery. The wait doubles with each time a
 * delivery was sent back, up to {@code maxWait}. A share is given back when the delivery leaves
 * PROCESSING; one never given back (its node lost track of it) lapses after {@code maxHold}.
 */
public final class ClientLanes {

  /** The label prefix that names a delivery's client on its job. */
  static final String LABEL_PREFIX = "client:";

  /** Lane of deliveries created before jobs carried their client. */
  static final String UNLABELLED = "?";

  private static final int MAX_LABEL = 45;

  private record Admission(String lane, Instant at) {}

  private final int perClient;
  private final Duration maxWait;
  private final Duration maxHold;
  private final Clock clock;
  private final Map<UUID, Admission> inFlight = new ConcurrentHashMap<>();
  private volatile Runnable onSentBack = () -> {};

  /**
   * @param perClient deliveries of one client in flight on this node, at least 1
   * @param maxWait longest wait of a delivery sent back
   * @param maxHold after this a share not given back lapses (longer than any attempt)
   */
  public ClientLanes(int perClient, Duration maxWait, Duration maxHold, Clock clock) {
    if (perClient < 1) {
      throw new IllegalArgumentException(
          "captchajobs.webhook.threads-per-client must be at least 1");
    }
    this.perClient = perClient;
    this.maxWait = maxWait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : maxWait;
    this.maxHold = maxHold;
    this.clock = clock;
  }

  /** The label a delivery job of this client carries (JobRunr allows 45 characters). */
  public static String label(String client) {
    String label = LABEL_PREFIX + client;
    if (label.length() <= MAX_LABEL) {
      return label;
    }
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(client.getBytes(StandardCharsets.UTF_8));
      String tail = "#" + HexFormat.of().formatHex(hash, 0, 6);
      return LABEL_PREFIX + client.substring(0, MAX_LABEL - LABEL_PREFIX.length() - 13) + tail;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /** Called after a fetch sent a delivery back: the caller fetches again at once. */
  public void onSentBack(Runnable action) {
    this.onSentBack = action;
  }

  /**
   * Takes a share for a delivery being fetched, or sends it back to SCHEDULED.
   *
   * @return whether the delivery may run now
   */
  boolean admit(Job job) {
    if (inFlight.containsKey(job.getId())) {
      return true;
    }
    String lane = laneOf(job);
    Instant now = clock.instant();
    synchronized (this) {
      if (inFlight(lane, now) < perClient) {
        inFlight.put(job.getId(), new Admission(lane, now));
        return true;
      }
    }
    long sentBack =
        job.getJobStates().stream().filter(s -> s.getName() == StateName.DELETED).count();
    Duration wait = waitAfter(sentBack);
    job.delete(
        "Client "
            + lane.substring(LABEL_PREFIX.length())
            + " has "
            + perClient
            + " deliveries in flight on this node");
    job.scheduleAt(now.plus(wait), "Waiting for a delivery thread of its client");
    onSentBack.run();
    return false;
  }

  /** Gives the share of a delivery back (it left PROCESSING). */
  void release(UUID jobId) {
    inFlight.remove(jobId);
  }

  /** Deliveries of this client's lane in flight on this node now. */
  public int inFlight(String client) {
    return inFlight(label(client), clock.instant());
  }

  private int inFlight(String lane, Instant now) {
    Instant lapsed = now.minus(maxHold);
    int n = 0;
    for (Map.Entry<UUID, Admission> e : inFlight.entrySet()) {
      if (e.getValue().at().isBefore(lapsed)) {
        inFlight.remove(e.getKey());
      } else if (e.getValue().lane().equals(lane)) {
        n++;
      }
    }
    return n;
  }

  /** About {@code 1s * 2^sentBack}, at most {@code maxWait}, ±25 % jitter. */
  Duration waitAfter(long sentBack) {
    long millis = 1000L << Math.min(sentBack, 20);
    millis = Math.min(millis, maxWait.toMillis());
    return Duration.ofMillis(Jitter.spread(millis, 500));
  }

  private static String laneOf(Job job) {
    return job.getLabels().stream()
        .filter(l -> l.startsWith(LABEL_PREFIX))
        .findFirst()
        .orElse(LABEL_PREFIX + UNLABELLED);
  }
}
