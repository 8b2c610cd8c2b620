package com.captchajobs.core.internal.lanes;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jobrunr.jobs.Job;

/**
 * Fair shares of one node's delivery threads: each API client may have at most {@code perClient}
 * deliveries in flight here ({@code captchajobs.webhook.threads-per-client}, by default {@code
 * (threads - 1) / 2}, at least 1), so the receivers of one client that hang hold only its own
 * share, no two clients hold every thread, and the other threads stay free for everyone else.
 *
 * <p>The share is taken when JobRunr fetches a delivery (its election to PROCESSING, before any
 * thread runs it). A delivery over its client's share is <em>parked</em>: it leaves PROCESSING
 * through DELETED (the only way out that is not a failure, so it uses none of its retries) to
 * SCHEDULED at a fallback instant ({@code fallback}, an hour by default). Once that parking is
 * stored ({@link #release} is called for it), its id waits in this node's memory, in its client's
 * queue (at most {@value #MAX_PARKED} ids in all), or, if a share of its client came free while it
 * was being stored, takes that share at once. Waiting writes nothing: when a delivery of that
 * client gives its share back, the share passes at once to the first parked one, which is handed to
 * {@link #onRelease} to be enqueued again. A share never passes to a delivery whose parking is not
 * stored yet: until JobRunr commits it, the table still shows the delivery as it was fetched, and
 * an enqueue read then would be overwritten by the parking, leaving it to its fallback. A parked
 * delivery is stored once more only if the fallback comes first (its node stopped without handing
 * it back, or its client's receivers hung for the whole hour), so its stored record does not grow
 * with the time it waits. A share is given back when the delivery leaves PROCESSING; one never
 * given back (its node lost track of it) lapses after {@code maxHold}, a share passed to a parked
 * delivery that never came back for it after {@link #RESERVED_HOLD}.
 */
public final class ClientLanes {

  /** The label prefix that names a delivery's client on its job. */
  static final String LABEL_PREFIX = "client:";

  /** Lane of deliveries created before jobs carried their client. */
  static final String UNLABELLED = "?";

  /** Parked ids this node keeps in memory, over all clients. */
  static final int MAX_PARKED = 100_000;

  /** How long a share passed to a parked delivery waits for it to be fetched. */
  static final Duration RESERVED_HOLD = Duration.ofMinutes(1);

  /** The default fallback of a parked delivery. */
  public static final Duration DEFAULT_FALLBACK = Duration.ofHours(1);

  private static final int MAX_LABEL = 45;

  private record Admission(String lane, Instant at, boolean reserved) {}

  /** A delivery parked by a fetch whose transaction has not stored the parking yet. */
  private record Parking(String lane, Instant at) {}

  private final int perClient;
  private final Duration fallback;
  private final Duration maxHold;
  private final Clock clock;
  private final Map<UUID, Admission> inFlight = new ConcurrentHashMap<>();
  private final Map<String, Deque<UUID>> parked = new HashMap<>();
  private final Map<UUID, Parking> parking = new HashMap<>();
  private int parkedCount;
  private final Runnable onParked;
  private final Consumer<UUID> onRelease;

  /**
   * @param perClient deliveries of one client in flight on this node, at least 1
   * @param fallback when a parked delivery is due again if no share was passed to it before
   * @param maxHold after this a share not given back lapses (longer than any attempt)
   * @param onParked called after a fetch parked a delivery: the caller fetches again at once
   * @param onRelease called with a parked delivery that a share was passed to: the caller enqueues
   *     it again (and calls {@link #release} for it when it cannot, so that the share passes on)
   */
  public ClientLanes(
      int perClient,
      Duration fallback,
      Duration maxHold,
      Clock clock,
      Runnable onParked,
      Consumer<UUID> onRelease) {
    if (perClient < 1) {
      throw new IllegalArgumentException(
          "captchajobs.webhook.threads-per-client must be at least 1");
    }
    this.perClient = perClient;
    this.fallback =
        fallback.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : fallback;
    this.maxHold = maxHold;
    this.clock = clock;
    this.onParked = onParked;
    this.onRelease = onRelease;
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

  /**
   * Takes a share for a delivery being fetched, or parks it.
   *
   * @return whether the delivery may run now
   */
  public boolean admit(Job job) {
    String lane = laneOf(job);
    Instant now = clock.instant();
    synchronized (this) {
      Admission held = inFlight.get(job.getId());
      parking.remove(job.getId());
      if (held != null || inFlight(lane, now) < perClient) {
        inFlight.put(job.getId(), new Admission(lane, now, false));
        unpark(lane, job.getId());
        return true;
      }
      // it waits in the queue again only once this parking is stored
      unpark(lane, job.getId());
      parking.values().removeIf(p -> p.at().isBefore(now.minus(RESERVED_HOLD)));
      if (parking.size() < MAX_PARKED) {
        parking.put(job.getId(), new Parking(lane, now));
      }
    }
    String client = lane.substring(LABEL_PREFIX.length());
    job.delete("Client %s has %d deliveries in flight on this node".formatted(client, perClient));
    job.scheduleAt(now.plus(fallback), "Parked until a delivery thread of its client is free");
    onParked.run();
    return false;
  }

  /**
   * A delivery was stored in a state other than PROCESSING: it gives its share back, passing it to
   * the first parked one; or its parking is stored, and it waits for a share or takes one free now.
   */
  public void release(UUID jobId) {
    UUID next;
    synchronized (this) {
      Parking stored = parking.remove(jobId);
      if (stored != null) {
        Instant now = clock.instant();
        if (inFlight(stored.lane(), now) >= perClient) {
          park(stored.lane(), jobId);
          return;
        }
        next = jobId; // a share came free while its parking was being stored
        inFlight.put(next, new Admission(stored.lane(), now, true));
      } else {
        Admission held = inFlight.remove(jobId);
        if (held == null) {
          return;
        }
        next = firstParked(held.lane());
        if (next == null) {
          return;
        }
        inFlight.put(next, new Admission(held.lane(), clock.instant(), true));
      }
    }
    onRelease.accept(next);
  }

  /** Whether a share was passed to this parked delivery and it has not taken it yet. */
  synchronized boolean reserved(UUID jobId) {
    Admission held = inFlight.get(jobId);
    return held != null && held.reserved();
  }

  /** Parked deliveries of this client on this node now. */
  public synchronized int parked(String client) {
    Deque<UUID> queue = parked.get(label(client));
    return queue == null ? 0 : queue.size();
  }

  /** Takes every parked delivery off this node (it stops): the caller enqueues them again. */
  public synchronized List<UUID> drainParked() {
    List<UUID> all = new ArrayList<>();
    parked.values().forEach(all::addAll);
    parked.clear();
    parkedCount = 0;
    return all;
  }

  private void park(String lane, UUID id) {
    Deque<UUID> queue = parked.computeIfAbsent(lane, l -> new ArrayDeque<>());
    if (!queue.contains(id) && parkedCount < MAX_PARKED) {
      queue.addLast(id);
      parkedCount++;
    }
  }

  private void unpark(String lane, UUID id) {
    Deque<UUID> queue = parked.get(lane);
    if (queue != null && queue.remove(id)) {
      parkedCount--;
      if (queue.isEmpty()) {
        parked.remove(lane);
      }
    }
  }

  private UUID firstParked(String lane) {
    Deque<UUID> queue = parked.get(lane);
    UUID first = queue == null ? null : queue.peekFirst();
    if (first != null) {
      unpark(lane, first);
    }
    return first;
  }

  /** Deliveries of this client's lane in flight on this node now. */
  public synchronized int inFlight(String client) {
    return inFlight(label(client), clock.instant());
  }

  private int inFlight(String lane, Instant now) {
    Instant lapsed = now.minus(maxHold);
    Instant unclaimed = now.minus(RESERVED_HOLD);
    int n = 0;
    for (Map.Entry<UUID, Admission> e : inFlight.entrySet()) {
      Admission a = e.getValue();
      if (a.at().isBefore(a.reserved() ? unclaimed : lapsed)) {
        inFlight.remove(e.getKey());
      } else if (a.lane().equals(lane)) {
        n++;
      }
    }
    return n;
  }

  private static String laneOf(Job job) {
    return job.getLabels().stream()
        .filter(l -> l.startsWith(LABEL_PREFIX))
        .findFirst()
        .orElse(LABEL_PREFIX + UNLABELLED);
  }
}
