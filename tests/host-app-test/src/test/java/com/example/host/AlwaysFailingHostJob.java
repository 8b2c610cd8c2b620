package com.example.host;

import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.springframework.stereotype.Component;

/** The host's job that always throws: its retries are the host's JobRunr settings, not ours. */
@Component
public class AlwaysFailingHostJob implements JobRequestHandler<HostJobRequest> {

  @Override
  public void run(HostJobRequest request) {
    throw new IllegalStateException("the host's own failure for " + request.reference());
  }
}
