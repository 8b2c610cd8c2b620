package com.captchajobs.core.internal.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recurring repair pass (invariant "bounded life" of docs/architecture.md): returns leaked
 * slots, expires unclaimed tokens, re-creates the job of any unfinished solve left without a live
 * one, and hands free slots to waiting solves whose wait is over. One node runs it at a time (an
 * advisory lock); every step is idempotent besides, so a pass cut short is simply run again.
 *
 * <p>A recovery job's id is named by the solve's repair count, incremented in the statement that
 * records the job: no two repairs of a solve share an id, so JobRunr never skips one as a
 * duplicate. The pass walks every stuck solve, oldest first, page by page: no number of wedged rows
 * hides another.
 */
public final class Reconciler implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
  private static final int PAGE = 500;
  private static final UUID FIRST = new UUID(0, 0);

  private final SolveRepository repository;
  private final FleetGate gate;
  private final SlotHandoff handoff;
  private final SolveJobs jobs;
  private final Duration stuckAfter;
  private final Duration solveDeadline;
  private final Clock clock;

  public Reconciler(
      SolveRepository repository,
      FleetGate gate,
      SlotHandoff handoff,
      SolveJobs jobs,
      Duration stuckAfter,
      Duration solveDeadline,
      Clock clock) {
    this.repository = repository;
    this.gate = gate;
    this.handoff = handoff;
    this.jobs = jobs;
    this.stuckAfter = stuckAfter;
    this.solveDeadline = solveDeadline;
    this.clock = clock;
  }

  @Override
  public void run() {
    try {
      reconcile();
    } catch (RuntimeException e) {
      log.warn("Reconcile pass failed, next pass will try again: {}", e.toString());
    }
  }

  /** One pass, unless another node is running one; true when this call ran it. */
  public boolean reconcile() {
    return repository.exclusively(this::pass);
  }

  private void pass() {
    int reclaimed = gate.reclaim();
    if (reclaimed > 0) {
      log.info("Reclaimed {} leaked gate slot(s)", reclaimed);
    }
    int expired = repository.expireTokens();
    if (expired > 0) {
      log.info("Expired {} unclaimed token(s)", expired);
    }
    repairStuck();
    handoff.handOff();
  }

  /** Re-creates a job for every stuck solve; returns how many got one. */
  int repairStuck() {
    int repaired = 0;
    Instant afterUpdatedAt = Instant.EPOCH;
    UUID afterId = FIRST;
    while (true) {
      List<SolveRepository.Stuck> page =
          repository.findStuck(stuckAfter, solveDeadline, afterUpdatedAt, afterId, PAGE);
      for (SolveRepository.Stuck stuck : page) {
        try {
          if (repair(stuck)) {
            repaired++;
          }
        } catch (RuntimeException e) {
          log.warn("Could not repair solve {}: {}", stuck.solve().id(), e.toString());
        }
      }
      if (page.size() < PAGE) {
        return repaired;
      }
      Solve last = page.get(page.size() - 1).solve();
      afterUpdatedAt = last.updatedAt();
      afterId = last.id();
    }
  }

  private boolean repair(SolveRepository.Stuck stuck) {
    Solve solve = stuck.solve();
    int repairNo = stuck.repairs() + 1;
    UUID jobId = SolveJobs.jobId(solve.id(), "repair:" + repairNo);
    // The job id first, then the job: a crash between the two leaves a row the next pass repairs
    // again under the next number.
    if (!repository.markRepaired(solve.id(), stuck.repairs(), jobId)) {
      return false; // moved meanwhile
    }
    jobs.submit(jobId, solve.id(), solve.type(), solve.businessKey(), 0);
    log.info(
        "Solve {} ({}) {} without a live job: repair #{} created submit job {}",
        solve.businessKey(),
        solve.id(),
        solve.status(),
        repairNo,
        jobId);
    return true;
  }
}
