package com.captchajobs.core.internal.engine;

import com.captchajobs.core.internal.steps.PollStep;
import org.jobrunr.jobs.lambdas.JobRequestHandler;

/**
 * The fetch a push rings for (see "Pushed answers" in docs/pingback.md): one res.php call on the
 * task, at once or 5 s after its last call, whose reply is handled as a poll's ({@link
 * PollStep#pollPushed}). It never starts a poll rhythm of its own: when the task is not ready, the
 * fallback polls go on as they were.
 */
public class PushedPollJob implements JobRequestHandler<PushedPollRequest> {

  private final Runs life;

  public PushedPollJob(Runs life) {
    this.life = life;
  }

  @Override
  public void run(PushedPollRequest request) throws InterruptedException {
    life.pushedPollJob(request);
  }

  /** What the fetch a push rang for runs: the solve's life, kept in the steps' package. */
  public interface Runs {
    void pushedPollJob(PushedPollRequest request) throws InterruptedException;
  }
}
