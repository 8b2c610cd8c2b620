package com.captchajobs.core.internal.enqueue;

import com.captchajobs.core.client.CaptchaTask;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.InvalidTaskException;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveInserts;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.SolveStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Stores a solve request under the caller's business key and creates its submit job (the "enqueue"
 * step of docs/architecture.md). Everything is validated before anything is stored; the same key
 * with the same payload returns the existing solve, with another payload it is a conflict.
 */
public final class SolveEnqueuer {

  private final SolveRepository repository;
  private final SolveInserts inserts;
  private final SolveJobs jobs;
  private final String node;
  private final Duration lease;

  /**
   * @param node this node's name, recorded on a slot a new solve takes
   * @param lease how long such a slot is held for the solve's submit job to confirm it
   */
  public SolveEnqueuer(
      SolveRepository repository,
      SolveInserts inserts,
      SolveJobs jobs,
      String node,
      Duration lease) {
    this.repository = repository;
    this.inserts = inserts;
    this.jobs = jobs;
    this.node = node;
    this.lease = lease;
  }

  /**
   * The stored solve, whether this call created it, and whether it was stored waiting for a
   * provider thread ({@code WAITING_FOR_THREAD}: no slot was free) rather than QUEUED; {@code
   * parked} is false for a solve this call did not create.
   */
  public record Enqueued(UUID id, boolean created, boolean parked) {}

  /** The business key exists with another payload. */
  public static final class ConflictException extends RuntimeException {
    private final UUID existingId;

    public ConflictException(String businessKey, UUID existingId) {
      super(
          "businessKey '%s' is already used by solve %s with a different payload"
              .formatted(businessKey, existingId));
      this.existingId = existingId;
    }

    public UUID existingId() {
      return existingId;
    }
  }

  /**
   * Stores a solve of {@code client}, whose business keys are its own: another client's solve with
   * the same key is neither found nor revealed. Takes fields validated at the edge ({@link
   * SolveFields}, by the Java API's {@code SolveRequest}); the provider parameters are normalised
   * by {@link CaptchaTask}. A new solve is stored only while {@code client} has fewer than {@code
   * maxUnfinished} unfinished solves (queued, waiting or submitted), counted and inserted under a
   * lock per client so that the cap holds exactly under concurrent enqueues on any number of nodes.
   * Empty when the cap is reached and nothing was stored; the same key and payload again still
   * answers the existing solve. {@code maxUnfinished} 0 means no cap.
   *
   * @throws InvalidTaskException naming the field when the parameters are invalid (nothing stored)
   * @throws ConflictException when the business key exists with another payload
   */
  public Optional<Enqueued> enqueue(
      String client,
      String businessKey,
      CaptchaType type,
      Map<String, String> params,
      int priority,
      String callbackUrl,
      int maxUnfinished) {
    CaptchaTask task = CaptchaTask.of(type, params == null ? Map.of() : params);
    String hash = payloadHash(type, task.params(), priority, callbackUrl);
    UUID id = UUID.randomUUID();
    SolveInserts.NewSolve solve =
        new SolveInserts.NewSolve(
            id,
            businessKey,
            type,
            task.params(),
            hash,
            priority,
            callbackUrl,
            SolveJobs.enqueueJobId(id),
            client);
    Optional<SolveStatus> stored;
    if (maxUnfinished > 0) {
      switch (inserts.insertUnderCap(solve, node, lease, maxUnfinished)) {
        case QUEUED -> stored = Optional.of(SolveStatus.QUEUED);
        case WAITING_FOR_THREAD -> stored = Optional.of(SolveStatus.WAITING_FOR_THREAD);
        case OVER_CAP -> {
          return Optional.empty();
        }
        default -> stored = Optional.empty();
      }
    } else {
      stored = inserts.insertQueuedOrWaiting(solve, node, lease);
    }
    if (stored.isPresent()) {
      if (stored.get() == SolveStatus.QUEUED) {
        jobs.submit(id, type, businessKey);
      } // else parked at once: a freed slot is handed to it, no job needed until then
      return Optional.of(new Enqueued(id, true, stored.get() == SolveStatus.WAITING_FOR_THREAD));
    }
    Solve existing = repository.findByBusinessKey(client, businessKey).orElseThrow();
    if (!hash.equals(repository.payloadHash(client, businessKey).orElse(""))) {
      throw new ConflictException(businessKey, existing.id());
    }
    // Same request again: make sure its first job exists (a no-op when it does); a solve parked
    // for a slot has none and needs none.
    if (existing.status() == SolveStatus.QUEUED) {
      jobs.submit(existing.id(), existing.type(), existing.businessKey());
    }
    return Optional.of(new Enqueued(existing.id(), false, false));
  }

  public static String payloadHash(
      CaptchaType type, Map<String, String> params, int priority, String callbackUrl) {
    StringBuilder sb = new StringBuilder(type.name()).append('\n');
    new TreeMap<>(params).forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
    sb.append("priority=").append(priority).append('\n');
    sb.append("callbackUrl=").append(callbackUrl == null ? "" : callbackUrl);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(sb.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
