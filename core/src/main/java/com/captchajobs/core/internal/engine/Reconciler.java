package com.captchajobs.core.internal.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recurring repair pass every worker node runs (each step is idempotent, so nodes may overlap):
 * returns leaked slots, expires unclaimed tokens, re-creates the job of any solve a crash left
 * without one, and hands free slots to waiting solves whose wait is over.
 */
public final class Reconciler implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
  private static final int BATCH = 100;

  private final SolveRepository repository;
  private final FleetGate gate;
  private final SlotHandoff handoff;
  private final SolveJobs jobs;
  private final Duration stuckAfter;
  private final Clock clock;

  public Reconciler(
      SolveRepository repository,
      FleetGate gate,
      SlotHandoff handoff,
      SolveJobs jobs,
      Duration stuckAfter,
      Clock clock) {
    this.repository = repository;
    this.gate = gate;
    this.handoff = handoff;
    this.jobs = jobs;
    this.stuckAfter = stuckAfter;
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

  /** One pass. */
  public void reconcile() {
    Instant now = clock.instant();
    int reclaimed = gate.reclaim();
    if (reclaimed > 0) {
      log.info("Reclaimed {} leaked gate slot(s)", reclaimed);
    }
    int expired = repository.expireTokens(now);
    if (expired > 0) {
      log.info("Expired {} unclaimed token(s)", expired);
    }
    for (Solve stuck : repository.findStuck(now.minus(stuckAfter), BATCH)) {
      UUID jobId = SolveJobs.jobId(stuck.id(), "recover:" + stuck.updatedAt().toEpochMilli());
      repository.setJob(stuck.id(), jobId);
      jobs.submit(jobId, stuck.id(), stuck.type(), stuck.businessKey(), 0);
      log.info(
          "Solve {} ({}) {} without a job: re-created its submit job",
          stuck.businessKey(),
          stuck.id(),
          stuck.status());
    }
    handoff.handOff();
  }
}
