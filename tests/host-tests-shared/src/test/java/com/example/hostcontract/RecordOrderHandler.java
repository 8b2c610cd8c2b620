package com.example.hostcontract;

import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The host's own job handler, run by the host's own JobRunr server. Not found by a component scan
 * of the host's package: each host application imports it.
 */
@Component
public class RecordOrderHandler implements JobRequestHandler<RecordOrder> {

  private final JdbcTemplate jdbc;

  RecordOrderHandler(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public void run(RecordOrder order) {
    jdbc.update("INSERT INTO public.host_order (reference) VALUES (?)", order.reference());
  }
}
