package com.example.host;

import org.jobrunr.jobs.lambdas.JobRequest;

/** A job of the host's own. */
public record HostJobRequest(String reference) implements JobRequest {

  @Override
  public Class<AlwaysFailingHostJob> getJobRequestHandler() {
    return AlwaysFailingHostJob.class;
  }
}
