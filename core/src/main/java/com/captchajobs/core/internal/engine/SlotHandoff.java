package com.captchajobs.core.internal.engine;

import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.store.SolveRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Releases a solve's slot and hands free slots to waiting solves at once, inside the job that frees
 * them. A running job keeps one hand-off for itself and submits that solve in its own thread (see
 * {@link SubmitJob#carryOn}): the next in.php follows within milliseconds, whatever the node's job
 * backlog. Any other hand-off gets a submit job, enqueued now and fetched at once by a node with an
 * idle thread.
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
   * Frees the solve's slot and, while this node has a worker thread to spare, hands it to the next
   * waiting solve for the running job {@code carrier} to submit itself ({@link SubmitJob#carryOn}),
   * with the solve's submit lock taken and the carrier recorded as its job. Only one slot is handed
   * here: a slot another job frees meanwhile is that job's to hand on, so every job keeps the slot
   * it frees. Without a thread to spare (a job that goes on with more work must not hold back jobs
   * waiting to be fetched) this is {@link #release}.
   */
  public Optional<FleetGate.Handoff> releaseAndTakeOne(UUID solveId, UUID carrier) {
    if (!jobs.threadToSpare()) {
      release(solveId);
      return Optional.empty();
    }
    gate.release(solveId);
    return gate.dispatchTo(carrier, SubmitJob.SUBMIT_LOCK);
  }

  /**
   * The solve gives its slot up, but the slot stays taken by a phantom holder for {@code hold}: a
   * task of it may still run at the provider (see {@link FleetGate#holdAfterLostSubmit}).
   */
  public void holdForAbandonedTask(UUID solveId, Duration hold) {
    gate.holdAfterLostSubmit(solveId, hold);
  }

  /** Pairs free slots with waiting solves and starts their submit jobs. */
  public void handOff() {
    for (FleetGate.Handoff h : gate.dispatch()) {
      start(h);
    }
  }

  /** What {@link #handOffParking} did for the solve that is parking and for the others. */
  public record Parking(boolean selfGotSlot, Optional<FleetGate.Handoff> kept) {}

  /**
   * Hands free slots to the waiting solves, {@code self} among them (it was just marked waiting). A
   * slot handed to {@code self} gets no job: the caller goes on with that solve. If {@code self}
   * got none, a caller that is a running job ({@code carrier}, else null) keeps one hand-off to
   * carry on with while this node has a thread to spare, prepared as by {@link #releaseAndTakeOne};
   * every other hand-off gets a submit job.
   */
  public Parking handOffParking(UUID self, UUID carrier) {
    List<FleetGate.Handoff> others = new ArrayList<>();
    boolean selfGotSlot = false;
    for (FleetGate.Handoff h : gate.dispatch()) {
      if (h.solveId().equals(self)) {
        selfGotSlot = true;
      } else {
        others.add(h);
      }
    }
    Optional<FleetGate.Handoff> kept = Optional.empty();
    if (!selfGotSlot && carrier != null && !others.isEmpty() && jobs.threadToSpare()) {
      FleetGate.Handoff h = others.remove(0);
      repository.setJob(h.solveId(), carrier);
      if (repository.lockForSubmit(h.solveId(), SubmitJob.SUBMIT_LOCK)) {
        kept = Optional.of(h);
      } else {
        others.add(h); // another run of its submit is at it: a job of its own retries
      }
    }
    others.forEach(this::start);
    return new Parking(selfGotSlot, kept);
  }

  /** Gives the handed solve a submit job of its own, recorded before it exists. */
  private void start(FleetGate.Handoff h) {
    UUID jobId = SolveJobs.jobId(h.solveId(), "handoff:" + h.waits());
    repository.setJob(h.solveId(), jobId);
    jobs.submit(jobId, h.solveId(), h.type(), h.businessKey(), h.freedAtEpochMilli());
  }
}
