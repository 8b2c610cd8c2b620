package com.captchajobs.core.internal.engine;

import java.util.UUID;
import org.jobrunr.jobs.lambdas.JobRequest;

/**
 * The report job's argument: only the solve id (the row holds the verdict and the task id, never
 * the API key). Kept stable: JobRunr stores the class name with every queued job.
 */
public record ReportJobRequest(UUID solveId) implements JobRequest {

  @Override
  public Class<ReportJob> getJobRequestHandler() {
    return ReportJob.class;
  }
}
