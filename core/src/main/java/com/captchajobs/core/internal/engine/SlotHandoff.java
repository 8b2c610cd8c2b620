package com.captchajobs.core.internal.engine;

import java.util.UUID;

/**
 * Releases a solve's slot and hands free slots to waiting solves at once, inside the job that frees
 * them: the handed solve's submit job is enqueued now and, as this job's worker thread goes idle
 * right after, JobRunr fetches it immediately (a server whose worker frees up looks for enqueued
 * work at once) instead of at its next poll.
 */
public final class SlotHandoff {

  private final FleetGate gate;
  private final SolveJobs jobs;
  private final SolveRepository repository;

  public SlotHandoff(FleetGate gate, SolveJobs jobs, SolveRepository repository) {
    this.gate = gate;
    this.jobs = jobs;
    this.repository = repository;
  }

  /** Frees the solve's slot (idempotent) and hands what is free to the waiting solves. */
  public void release(UUID solveId) {
    gate.release(solveId);
    handOff();
  }

  /**
   * The solve gives its slot up, but the slot stays taken by a phantom holder for {@code hold}: a
   * task of it may still run at the provider (see {@link FleetGate#holdAfterLostSubmit}).
   */
  public void holdForAbandonedTask(UUID solveId, java.time.Duration hold) {
    gate.holdAfterLostSubmit(solveId, hold);
  }

  /** Pairs free slots with waiting solves and starts their submit jobs. */
  public void handOff() {
    handOffExcept(null);
  }

  /**
   * Like {@link #handOff()}, but a slot handed to {@code self} is not given a new job: the caller
   * goes on with that solve itself. True when {@code self} got a slot.
   */
  public boolean handOffExcept(UUID self) {
    boolean selfGotSlot = false;
    for (FleetGate.Handoff h : gate.dispatch()) {
      if (h.solveId().equals(self)) {
        selfGotSlot = true;
        continue;
      }
      UUID jobId = SolveJobs.jobId(h.solveId(), "handoff:" + h.waits());
      repository.setJob(h.solveId(), jobId);
      jobs.submit(
          jobId,
          h.solveId(),
          h.type(),
          h.businessKey(),
          h.freedAt() == null ? 0 : h.freedAt().toEpochMilli());
    }
    return selfGotSlot;
  }
}
