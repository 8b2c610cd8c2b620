package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.assembly.Engine;
import com.captchajobs.core.internal.assembly.WorkerParts;
import com.captchajobs.core.internal.engine.SolveJobs;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.ops.BreakerRows;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.model.SolveStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * What operators read and do across the fleet, on any node: solves filtered and paged, batch
 * summaries, dead solves, requeueing a failed solve, the gate and who holds its slots, every key's
 * breaker; and, on a worker, its own key's breaker and plan ({@link #worker()}). Obtained with
 * {@code CaptchaJobs.operations()}; the app node's {@code /api/admin} and the starter's health,
 * metrics and breaker endpoint are built on it.
 *
 * <pre>{@code
 * Operations ops = captchaJobs.operations();
 * Operations.Gate gate = ops.gate();
 * long dead = ops.failedWithin(Duration.ofMinutes(10));
 * ops.requeue(solveId); // a FAILED solve submitted afresh
 * }</pre>
 *
 * Every call reads the database; nothing is cached. Views never show a token, a solve's parameters
 * or an API key (keys appear as fingerprints).
 */
public final class Operations {

  /** Largest page of {@link #solves}. */
  public static final int MAX_PAGE_SIZE = OperatorQueries.MAX_PAGE_SIZE;

  private final OperatorQueries queries;
  private final SolveJobs jobs;
  private final Supplier<Map<String, Long>> jobCounts;
  private final LocalWorker worker;

  Operations(
      OperatorQueries queries,
      SolveJobs jobs,
      Supplier<Map<String, Long>> jobCounts,
      LocalWorker worker) {
    this.queries = queries;
    this.jobs = jobs;
    this.jobCounts = jobCounts;
    this.worker = worker;
  }

  /** The operations of a running node; {@code jobCounts} reads its own JobRunr's jobs. */
  static Operations of(Engine engine, Supplier<Map<String, Long>> jobCounts) {
    WorkerParts w = engine.worker();
    return new Operations(
        engine.operatorQueries(),
        engine.parts().find(SolveJobs.class).orElseThrow(),
        jobCounts,
        w == null
            ? null
            : new LocalWorker(engine.operatorQueries(), w.breaker(), w.gate(), w.planCheck()));
  }

  /**
   * Which solves {@link #solves} lists; every filter is optional (null).
   *
   * @param keyPrefix matches the start of the business key
   * @param from created at or after
   * @param to created before
   * @param client the API client that enqueued them
   */
  public record SolveFilter(
      SolveStatus status,
      CaptchaType type,
      String errorCode,
      String keyPrefix,
      String batch,
      Instant from,
      Instant to,
      String client) {

    /** No filter: every solve. */
    public static SolveFilter all() {
      return new SolveFilter(null, null, null, null, null, null, null, null);
    }
  }

  /**
   * One solve in an operator's list, never its token or parameters.
   *
   * @param errorClass the class of {@code errorCode} in lower case ({@code permanent}, ...)
   * @param requeuedErrorCode the error the solve had when it was last requeued
   */
  public record SolveRow(
      UUID id,
      String client,
      String businessKey,
      CaptchaType type,
      SolveStatus status,
      String errorCode,
      String errorClass,
      String batch,
      int priority,
      int submits,
      int polls,
      int requeues,
      String requeuedErrorCode,
      Instant createdAt,
      Instant updatedAt,
      Instant submittedAt,
      Instant solvedAt) {}

  /** A page of solves matching the filter, newest first (created in [from, to)). */
  public List<SolveRow> solves(SolveFilter filter, int page, int size) {
    OperatorQueries.Filter f =
        new OperatorQueries.Filter(
            filter.status(),
            filter.type(),
            filter.errorCode(),
            filter.keyPrefix(),
            filter.batch(),
            filter.from(),
            filter.to(),
            filter.client());
    return queries.list(f, page, size).stream().map(Operations::row).toList();
  }

  private static SolveRow row(OperatorQueries.Row r) {
    return new SolveRow(
        r.id(),
        r.client(),
        r.businessKey(),
        r.type(),
        r.status(),
        r.errorCode(),
        r.errorClass(),
        r.batch(),
        r.priority(),
        r.submits(),
        r.polls(),
        r.requeues(),
        r.requeuedErrorCode(),
        r.createdAt(),
        r.updatedAt(),
        r.submittedAt(),
        r.solvedAt());
  }

  /**
   * A client's batch: its solves by status (every status, 0 included), and the latency (submit to
   * token) p50 and p95 of its solved ones by nearest rank, in seconds, null while none is solved.
   */
  public record BatchSummary(
      String batch,
      long total,
      Map<SolveStatus, Long> byStatus,
      Double latencyP50Seconds,
      Double latencyP95Seconds,
      String client) {}

  /**
   * The clients that label solves with {@code batch}, in name order. A batch belongs to its client:
   * the same label used by two clients is two batches.
   */
  public List<String> batchClients(String batch) {
    return queries.batchClients(batch);
  }

  /** {@code client}'s batch {@code batch}; empty when none of its solves carries the label. */
  public Optional<BatchSummary> batch(String client, String batch) {
    return queries
        .batch(client, batch)
        .map(
            b -> {
              Map<SolveStatus, Long> byStatus = new LinkedHashMap<>();
              b.byStatus().forEach((state, n) -> byStatus.put(state, n));
              return new BatchSummary(
                  b.batch(),
                  b.total(),
                  byStatus,
                  b.latencyP50Seconds(),
                  b.latencyP95Seconds(),
                  b.client());
            });
  }

  /** What a requeue did: the solve, and its count of requeues so far. */
  public record Requeued(UUID solveId, int requeues) {}

  /**
   * Submits a {@code FAILED} solve afresh (same id and key): back to {@code QUEUED} with no task
   * and no error, its previous error kept as {@code requeuedErrorCode}, counted in {@code
   * requeues}, with a fresh deadline from now. Empty when the solve is not FAILED (nothing
   * changes).
   *
   * @throws NotRequeueableException when the solve's proxy or cookies were removed as it failed, so
   *     that it can no longer be sent as enqueued (nothing changes)
   */
  public Optional<Requeued> requeue(UUID solveId) {
    try {
      return queries.requeue(solveId, jobs).map(r -> new Requeued(r.solveId(), r.requeues()));
    } catch (OperatorQueries.NotRebuildableException e) {
      throw new NotRequeueableException(e.getMessage());
    }
  }

  /** A failed solve that cannot be sent again as it was enqueued; nothing was changed. */
  public static final class NotRequeueableException extends RuntimeException {
    NotRequeueableException(String message) {
      super(message);
    }
  }

  /** Solves that ended {@code FAILED} within the window (dead solves). */
  public long failedWithin(Duration window) {
    return queries.failedWithin(window);
  }

  /** CaptchaJobs' own JobRunr jobs by state, never a host's ({@link CaptchaJobs#jobCounts}). */
  public Map<String, Long> jobCounts() {
    return jobCounts.get();
  }

  /**
   * The fleet gate's figures at one instant.
   *
   * @param capacity the cap, {@code captchaai.threads}
   * @param inFlight slots held now (a lapsed lease does not count)
   * @param waiting solves waiting for a slot
   */
  public record Gate(int capacity, int inFlight, int waiting) {}

  /**
   * Who holds a slot: the solve, the node, since when and until when (the lease); {@code phantom}
   * for a slot held for a provider thread still busy with a task whose submit was lost.
   */
  public record SlotHolder(
      int slot, UUID solveId, String node, Instant since, Instant leaseUntil, boolean phantom) {}

  /** The fleet gate: capacity, slots in flight, solves waiting. */
  public Gate gate() {
    FleetGate gate = queries.gate();
    return new Gate(gate.capacity(), gate.inFlight(), gate.waiting());
  }

  /** The slots held now, by slot number. */
  public List<SlotHolder> gateHolders() {
    return queries.gate().holders().stream()
        .map(
            h ->
                new SlotHolder(
                    h.slot(), h.solveId(), h.node(), h.since(), h.leaseUntil(), h.phantom()))
        .toList();
  }

  /** One key's breaker, by the key's fingerprint (never the key). */
  public record BreakerRow(
      String keyFingerprint,
      boolean open,
      String errorCode,
      String reason,
      Instant openedAt,
      Instant closedAt) {}

  /** Every key's breaker that ever opened, by fingerprint. */
  public List<BreakerRow> breakers() {
    return queries.breakerRows().all().stream().map(Operations::breaker).toList();
  }

  /** One key's breaker; empty while it never opened. */
  public Optional<BreakerRow> breaker(String keyFingerprint) {
    return queries.breakerRows().of(keyFingerprint).map(Operations::breaker);
  }

  /** Closes a key's breaker after the cause is fixed; true when it was open. */
  public boolean closeBreaker(String keyFingerprint) {
    return queries.breaker(keyFingerprint).closeBreaker();
  }

  static BreakerRow breaker(BreakerRows.BreakerRow b) {
    return new BreakerRow(
        b.keyFingerprint(), b.open(), b.errorCode(), b.reason(), b.openedAt(), b.closedAt());
  }

  /** This node's worker, on a node that runs one. */
  public Optional<LocalWorker> worker() {
    return Optional.ofNullable(worker);
  }

  /** The provider did not answer {@code threadsinfo}: since when, and with what code. */
  public record ProviderOutage(Instant since, String errorCode) {}
}
