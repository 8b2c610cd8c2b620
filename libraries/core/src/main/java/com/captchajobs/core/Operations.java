package com.captchajobs.core;

import com.captchajobs.core.internal.assembly.Engine;
import com.captchajobs.core.internal.assembly.WorkerParts;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.model.BatchSummary;
import com.captchajobs.core.model.BreakerRow;
import com.captchajobs.core.model.Gate;
import com.captchajobs.core.model.ProviderRow;
import com.captchajobs.core.model.Requeued;
import com.captchajobs.core.model.SlotHolder;
import com.captchajobs.core.model.SolveFilter;
import com.captchajobs.core.model.SolveRow;
import java.time.Duration;
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
 * Gate gate = ops.gate();
 * long dead = ops.failedWithin(Duration.ofMinutes(10));
 * ops.requeue(solveId); // a FAILED solve submitted afresh
 * }</pre>
 *
 * Every call reads the database; nothing is cached. The values it returns are those of {@link
 * com.captchajobs.core.model}, the engine's own types. Views never show a token, a solve's
 * parameters or an API key (keys appear as fingerprints).
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

  /** A page of solves matching the filter, newest first (created in [from, to)). */
  public List<SolveRow> solves(SolveFilter filter, int page, int size) {
    return queries.list(filter, page, size);
  }

  /**
   * The clients that label solves with {@code batch}, in name order. A batch belongs to its client:
   * the same label used by two clients is two batches.
   */
  public List<String> batchClients(String batch) {
    return queries.batchClients(batch);
  }

  /** {@code client}'s batch {@code batch}; empty when none of its solves carries the label. */
  public Optional<BatchSummary> batch(String client, String batch) {
    return queries.batch(client, batch);
  }

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
      return queries.requeue(solveId, jobs);
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

  /** The fleet gate: capacity, slots in flight, solves waiting. */
  public Gate gate() {
    FleetGate gate = queries.gate();
    return new Gate(gate.capacity(), gate.inFlight(), gate.waiting());
  }

  /** The slots held now, by slot number. */
  public List<SlotHolder> gateHolders() {
    return queries.gate().holders();
  }

  /** Every key's breaker that ever opened, by fingerprint. */
  public List<BreakerRow> breakers() {
    return queries.breakerRows().all();
  }

  /** One key's breaker; empty while it never opened. */
  public Optional<BreakerRow> breaker(String keyFingerprint) {
    return queries.breakerRows().of(keyFingerprint);
  }

  /** Closes a key's breaker after the cause is fixed; true when it was open. */
  public boolean closeBreaker(String keyFingerprint) {
    return queries.breaker(keyFingerprint).closeBreaker();
  }

  /**
   * Every provider the workers registered (docs/providers.md): the primary, {@code captchaai},
   * first, then each of {@code captchajobs.providers.*}, with its threads, slots in flight,
   * breaker, today's spend and daily budget.
   */
  public List<ProviderRow> providers() {
    return queries.providerRows().all();
  }

  /**
   * Sets a provider's budget per UTC day for the whole fleet, stored in the database, over its
   * configured {@code daily-budget} until set again: {@code null} goes back to the configured one,
   * 0 means no cap. A backup whose budget is spent takes solves again as soon as this raises it.
   *
   * @return false when no worker registered a provider of that name beside the primary
   */
  public boolean setDailyBudget(String provider, java.math.BigDecimal dailyBudget) {
    return queries.providerRows().setDailyBudget(provider, dailyBudget);
  }

  /** This node's worker, on a node that runs one. */
  public Optional<LocalWorker> worker() {
    return Optional.ofNullable(worker);
  }
}
