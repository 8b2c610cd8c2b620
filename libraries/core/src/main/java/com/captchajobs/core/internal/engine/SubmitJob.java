package com.captchajobs.core.internal.engine;

import java.util.UUID;
import org.jobrunr.jobs.context.JobContext;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.server.runner.ThreadLocalJobContext;

/**
 * The submit job: JobRunr runs it with a {@link SubmitJobRequest} (both names are stored with every
 * queued job, so they stay). It hands the request to the solve's life ({@code steps.SolveLife},
 * through {@link Runs}), which makes the submit step (the submit step) and goes on with what that
 * step leaves to the running job.
 */
public class SubmitJob implements JobRequestHandler<SubmitJobRequest> {

  private final Runs life;

  public SubmitJob(Runs life) {
    this.life = life;
  }

  @Override
  public void run(SubmitJobRequest request) throws InterruptedException {
    JobContext context = ThreadLocalJobContext.getJobContext();
    life.submitJob(request, context == null ? null : context.getJobId());
  }

  /** Moves the solve one step towards a submitted task, outside a job; see the submit step. */
  public void submit(UUID solveId, long slotFreedAtEpochMilli) {
    life.submit(solveId, slotFreedAtEpochMilli);
  }

  /**
   * In.php created a task whose id could not be stored: treated as a lost reply. Retried by
   * JobRunr; the solve's submit lock and a phantom slot stay until the lost-submit hold ends.
   */
  public static final class TaskIdNotStoredException extends RuntimeException {
    public TaskIdNotStoredException(UUID solveId, Throwable cause) {
      super("the task id of solve " + solveId + " could not be stored", cause);
    }

    /** For JobRunr, which rebuilds a failed job's exception from its stored message. */
    public TaskIdNotStoredException(String message) {
      super(message);
    }
  }

  /** Retried by JobRunr: another run of the same solve held its submit lock. */
  public static final class SubmitBusyException extends RuntimeException {
    public SubmitBusyException(UUID solveId) {
      super("another run is submitting solve " + solveId);
    }

    /** For JobRunr, which rebuilds a failed job's exception from its stored message. */
    public SubmitBusyException(String message) {
      super(message);
    }
  }

  /** What a submit job runs: the solve's life, kept in the steps' package. */
  public interface Runs {
    void submitJob(SubmitJobRequest request, UUID runningJob) throws InterruptedException;

    void submit(UUID solveId, long slotFreedAtEpochMilli);
  }
}
