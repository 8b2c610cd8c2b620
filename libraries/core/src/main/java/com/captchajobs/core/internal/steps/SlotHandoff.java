package com.captchajobs.core.internal.steps;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.gate.PhantomSlots;
import com.captchajobs.core.internal.store.SolveTransitions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Frees a solve's slot and hands free slots to waiting solves at once, inside the job that frees
 * them. A running job keeps one hand-off for itself and submits that solve in its own thread (see
 * {@link SolveLife}): the next in.php follows within milliseconds, whatever the node's job backlog.
 * Any other hand-off gets a submit job, enqueued now and fetched at once by a node with an idle
 * thread.
 *
 * <p><b>Freeing a slot.</b> A solve's slot is freed only here, and freeing hands it on: {@link
 * #release} (or {@link #releaseAndTakeOne} for a job that carries on) frees it and pairs what is
 * free with the waiting solves in the same step. The one exception is {@link #giveBack}, for a
 * provider without a free thread: a hand-off would only meet the same answer, so the slot waits for
 * the next hand-off. A slot whose task may still run at the provider is not freed but held by a
 * phantom ({@link #holdForAbandonedTask}). {@link FleetGate#release} has no other caller; the
 * repair pass alone takes back slots nobody freed ({@link FleetGate#reclaim}, {@link
 * PhantomSlots#release}) and hands them on through {@link #handOff} in the same pass. Which of
 * these an outcome calls for is {@link TaskOutcomes}' to decide.
 */
public final class SlotHandoff {

  /**
   * How long a solve's submit lock is taken, by its submit step or by a hand-off for the running
   * job that carries it: longer than one in.php call can take (the client's call timeout) with a
   * margin.
   */
  public static final Duration SUBMIT_LOCK = CaptchaAiClient.DEFAULT_CALL_TIMEOUT.plusSeconds(30);

  private final FleetGate gate;
  private final SolveJobs jobs;
  private final SolveTransitions transitions;
  private volatile Runnable phantomMade = () -> {};

  public SlotHandoff(FleetGate gate, SolveJobs jobs, SolveTransitions transitions) {
    this.gate = gate;
    this.jobs = jobs;
    this.transitions = transitions;
  }

  /** Frees the solve's slot (idempotent) and hands what is free to the waiting solves. */
  public void release(UUID solveId) {
    gate.release(solveId);
    handOff();
  }

  /**
   * Frees the solve's slot without handing it on: the provider has no free thread now (thread
   * saturation), so a waiting solve handed the slot would only meet the same answer. The next
   * hand-off (another job's, or the repair pass's) passes it on.
   */
  public void giveBack(UUID solveId) {
    gate.release(solveId);
  }

  /**
   * Frees the solve's slot and, while this node has a worker thread to spare, hands it to the next
   * waiting solve for the running job {@code carrier} to submit itself ({@link SolveLife}), with
   * the solve's submit lock taken and the carrier recorded as its job. Only one slot is handed
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
    return gate.dispatchTo(carrier, SUBMIT_LOCK);
  }

  /**
   * The solve gives its slot up, but the slot stays taken by a phantom holder for {@code hold}: a
   * task of it may still run at the provider (see {@link FleetGate#holdAfterLostSubmit}). Nothing
   * is freed, so nothing is handed on.
   */
  public void holdForAbandonedTask(UUID solveId, Duration hold) {
    if (gate.holdAfterLostSubmit(solveId, hold)) {
      phantomMade.run();
    }
  }

  /**
   * Runs {@code action} after each phantom {@link #holdForAbandonedTask} made: a worker has it read
   * the provider's threads soon, so that a phantom whose in.php made no task is freed within a
   * reading's settling instead of at the next repair pass. Set once, when the worker starts.
   */
  public void onPhantom(Runnable action) {
    phantomMade = action;
  }

  /** Pairs free slots with waiting solves and starts their submit jobs. */
  public void handOff() {
    gate.dispatch().forEach(this::start);
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
      transitions.setJob(h.solveId(), carrier);
      if (transitions.lockForSubmit(h.solveId(), SUBMIT_LOCK)) {
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
    transitions.setJob(h.solveId(), jobId);
    jobs.submit(jobId, h.solveId(), h.type(), h.businessKey(), h.freedAtEpochMilli());
  }
}
