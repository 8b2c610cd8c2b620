package com.captchajobs.console;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.steps.SolveJobs;
import java.util.List;
import javax.sql.DataSource;
import org.jobrunr.dashboard.server.HttpExchangeHandler;

/**
 * The operator console at {@code /console/} on the dashboard's port: its handler, served by the
 * dashboard server behind the same basic authentication and cross-site refusal as JobRunr's own
 * pages, and the sampler that remembers the last 15 minutes of the gate for its chart.
 */
public final class Console {

  /** Where the console is served. */
  public static final String PATH = "/console";

  private Console() {}

  /** The handlers to serve beside JobRunr's; closing them stops the sampler. */
  public static List<HttpExchangeHandler> handlers(
      DataSource dataSource, Schema schema, OperatorQueries operations, SolveJobs jobs) {
    ConsoleQueries queries = new ConsoleQueries(dataSource, schema);
    Sampler sampler = new Sampler(queries).start();
    return List.of(
        new ConsoleHandler(
            queries,
            operations,
            jobs,
            sampler,
            new ConsoleProviders(operations, dataSource, schema)));
  }
}
