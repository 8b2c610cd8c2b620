package com.captchajobs.core.internal.webhook;

import com.captchajobs.core.model.SolveStatus;
import java.util.UUID;
import org.jobrunr.jobs.lambdas.JobRequest;

/**
 * The webhook job's argument: which solve and which outcome, nothing else (the secret, the token
 * and the callback URL stay out of JobRunr's tables and dashboard). Kept stable: JobRunr stores the
 * class name with every queued job.
 */
public record WebhookJobRequest(UUID solveId, SolveStatus status) implements JobRequest {

  @Override
  public Class<WebhookJob> getJobRequestHandler() {
    return WebhookJob.class;
  }
}
