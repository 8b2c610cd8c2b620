package com.example.hostcontract;

import org.jobrunr.jobs.lambdas.JobRequest;

/** A job of the host's own: record an order. */
public record RecordOrder(String reference) implements JobRequest {

  @Override
  public Class<RecordOrderHandler> getJobRequestHandler() {
    return RecordOrderHandler.class;
  }
}
