package com.captchajobs.core.internal.engine;

import java.util.UUID;
import org.jobrunr.jobs.context.JobContext;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.server.runner.ThreadLocalJobContext;

/**
 * The fetch a push rings for (see "Pushed answers" in docs/pingback.md): one res.php call on the
 * task, at once or 5 s after its last call, whose reply is handled as a poll's (the poll step's).
 * It never starts a poll rhythm of its own: when the task is not ready, the fallback polls go on as
 * they were. A slot its answer frees for a waiting solve is submitted in its thread, as after a
 * poll (the steps' {@code SolveLife}).
 */
public class PushedPollJob implements JobRequestHandler<PushedPollRequest> {

  private final Runs life;

  public PushedPollJob(Runs life) {
    this.life = life;
  }

  @Override
  public void run(PushedPollRequest request) throws InterruptedException {
    JobContext context = ThreadLocalJobContext.getJobContext();
    life.pushedPollJob(request, context == null ? null : context.getJobId());
  }

  /** What the fetch a push rang for runs: the solve's life, kept in the steps' package. */
  public interface Runs {
    void pushedPollJob(PushedPollRequest request, UUID runningJob) throws InterruptedException;
  }
}
