package com.captchajobs.core.internal.engine;

import java.util.UUID;
import org.jobrunr.jobs.lambdas.JobRequest;

/**
 * The poll job's argument: the solve, which submission and which poll of it, and the instant the
 * res.php call is meant to happen (the job is scheduled earlier and waits for it).
 */
public record PollJobRequest(UUID solveId, int submitNo, int pollNo, long intendedAtEpochMilli)
    implements JobRequest {

  @Override
  public Class<PollJob> getJobRequestHandler() {
    return PollJob.class;
  }
}
