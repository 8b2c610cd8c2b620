package com.captchajobs.core.internal.engine;

import com.captchajobs.core.internal.retry.Step;
import java.util.UUID;
import org.jobrunr.jobs.context.JobContext;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.server.runner.ThreadLocalJobContext;

/**
 * The poll job: JobRunr runs it with a {@link PollJobRequest} (both names are stored with every
 * queued job, so they stay). It hands the request to the solve's life ({@code steps.SolveLife},
 * through {@link Runs}), which makes the poll step ({@code PollStep}) and goes on with a slot that
 * step frees.
 */
public class PollJob implements JobRequestHandler<PollJobRequest> {

  private final Runs life;

  public PollJob(Runs life) {
    this.life = life;
  }

  @Override
  public void run(PollJobRequest request) throws InterruptedException {
    JobContext context = ThreadLocalJobContext.getJobContext();
    life.pollJob(request, context == null ? null : context.getJobId());
  }

  /** Makes the poll of {@code request}; see the poll step. */
  Step poll(PollJobRequest request, UUID carrier) throws InterruptedException {
    return life.poll(request, carrier);
  }

  /** Makes the res.php call a push rang for; see the poll step. */
  Step pollPushed(PushedPollRequest request) throws InterruptedException {
    return life.pollPushed(request);
  }

  /** What a poll job runs: the solve's life, kept in the steps' package. */
  public interface Runs {
    void pollJob(PollJobRequest request, UUID runningJob) throws InterruptedException;

    Step poll(PollJobRequest request, UUID carrier) throws InterruptedException;

    Step pollPushed(PushedPollRequest request) throws InterruptedException;
  }
}
