package com.captchajobs.core.internal.assembly;

import com.captchajobs.core.internal.dashboard.DashboardServing;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.jobrunr.Dispatcher;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.internal.node.Parts;
import com.captchajobs.core.internal.notify.DedicatedConnections;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.provider.PingbackUrls;
import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.SolveInserts;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.internal.time.DatabaseClock;
import com.captchajobs.core.internal.upkeep.NodeLiveness;
import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.SolveSettings;
import javax.sql.DataSource;

/**
 * Builds and starts a node from its settings: the schema, the database clock, our JobRunr, the
 * enqueue path and the outcome listener on every node; a worker ({@link WorkerAssembly}) where
 * there is a key; the dashboard where asked ({@link DashboardServing}, from captchajobs-console). A
 * start that fails stops what it started.
 */
public final class EngineAssembly {

  private EngineAssembly() {}

  /**
   * Migrates the schema and starts the node's parts.
   *
   * @throws com.captchajobs.core.settings.InvalidSettingException when the plan is smaller than the
   *     thread cap, or the dashboard is asked for without captchajobs-console on the class path
   * @throws IllegalStateException when the database refuses
   */
  public static Engine start(NodeSettings settings) {
    Schema schema = Schema.named(settings.schema());
    DataSource dataSource = settings.dataSource();
    SolveSettings engine = settings.solve();
    // refused before anything starts: a dashboard asked for is served by captchajobs-console
    DashboardServing dashboardServing =
        settings.dashboard() == null ? null : DashboardServing.require();
    Parts parts = new Parts();
    try {
      schema.migrate(dataSource);
      DatabaseClock clock = parts.stopLater(DatabaseClock.start(dataSource, settings.clock()));
      // Released after our JobRunr server stopped (parts stop in reverse order): a node that is
      // still finishing its jobs must not look dead to the others.
      NodeLiveness liveness =
          settings.runsWorker()
              ? parts.stopLater(
                  new NodeLiveness(
                      DedicatedConnections.of(dataSource, "captchajobs-liveness")::open, clock))
              : null;
      OwnJobRunr jobRunr = parts.stopLater(OwnJobRunr.open(dataSource, schema));
      SolveRepository repository = new SolveRepository(dataSource, schema);
      Dispatcher dispatcher = new Dispatcher(dataSource, settings.nodeName());
      SolveJobs jobs =
          new SolveJobs(
              jobRunr.scheduler(), clock, engine.pollLead(), engine.transientRetries(), dispatcher);
      SolveNotifications notifications =
          parts.stopLater(SolveNotifications.forDataSource(dataSource, repository).start());
      OperatorQueries operatorQueries = new OperatorQueries(dataSource, schema);
      parts.stopLater(dispatcher); // stopped before the notifications it listens on
      SolveEnqueuer enqueuer =
          new SolveEnqueuer(
              repository,
              new SolveInserts(dataSource, schema),
              jobs,
              settings.nodeName(),
              engine.lease());
      parts.show(
          clock,
          repository,
          jobs,
          notifications,
          enqueuer,
          jobRunr.scheduler(),
          jobRunr.storage(),
          operatorQueries);
      Shared shared =
          new Shared(
              settings,
              engine,
              schema,
              clock,
              jobRunr,
              repository,
              jobs,
              notifications,
              dispatcher,
              liveness);
      if (settings.pingbacks() != null && !settings.runsWorker()) {
        parts.show(receiverOfPushes(shared));
      }
      WorkerParts worker = settings.runsWorker() ? WorkerAssembly.start(shared, parts) : null;
      DashboardSettings dashboard = settings.dashboard();
      if (dashboard != null) {
        parts.stopLater(
            dashboardServing.start(
                dashboard,
                new DashboardServing.Sources(
                    dataSource,
                    schema,
                    jobRunr.storage(),
                    jobRunr.jsonMapper(),
                    operatorQueries,
                    jobs)));
      }
      return new Engine(
          schema, clock, repository, notifications, enqueuer, operatorQueries, worker, parts);
    } catch (RuntimeException e) {
      parts.close();
      throw e;
    }
  }

  /** A node that only receives pushes: it has a worker of the fleet fetch each rung answer. */
  private static Pingbacks receiverOfPushes(Shared s) {
    NodeSettings settings = s.settings();
    return new Pingbacks(
        new PingbackUrls(null, settings.pingbacks().secret()),
        s.repository(),
        new SolveTransitions(settings.dataSource(), s.schema()),
        s.jobs(),
        s.engine(),
        s.clock());
  }
}
