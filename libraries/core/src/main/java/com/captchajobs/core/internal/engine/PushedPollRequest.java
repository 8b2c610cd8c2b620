package com.captchajobs.core.internal.engine;

import java.util.UUID;
import org.jobrunr.jobs.lambdas.JobRequest;

/**
 * The argument of the fetch a push rings for ({@link PushedPollJob}): the solve, which submission,
 * the last res.php call on its task when the push came (0: none yet) and the instant the call is
 * meant to happen. Nothing the provider pushed is in it.
 */
public record PushedPollRequest(
    UUID solveId, int submitNo, long lastCallEpochMilli, long intendedAtEpochMilli)
    implements JobRequest {

  @Override
  public Class<PushedPollJob> getJobRequestHandler() {
    return PushedPollJob.class;
  }
}
