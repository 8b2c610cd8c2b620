package com.captchajobs.core.internal.engine;

import java.util.UUID;
import org.jobrunr.jobs.lambdas.JobRequest;

/**
 * The submit job's argument: only the solve id (the row holds the rest, never the API key). Kept
 * stable: JobRunr stores the class name with every queued job, so renaming or moving it strands the
 * jobs already stored.
 *
 * @param slotFreedAtEpochMilli when the slot handed to this solve was freed, 0 if not a hand-off
 */
public record SubmitJobRequest(UUID solveId, long slotFreedAtEpochMilli) implements JobRequest {

  @Override
  public Class<SubmitJob> getJobRequestHandler() {
    return SubmitJob.class;
  }
}
