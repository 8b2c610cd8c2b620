package com.captchajobs.core.internal.assembly;

import com.captchajobs.core.internal.engine.PollJob;
import com.captchajobs.core.internal.engine.PushedPollJob;
import com.captchajobs.core.internal.engine.ReportJob;
import com.captchajobs.core.internal.engine.SubmitJob;
import com.captchajobs.core.internal.jobrunr.ScheduledJobsWake;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.internal.node.Parts;
import com.captchajobs.core.internal.providers.ProviderPreflight;
import com.captchajobs.core.internal.retry.PermanentErrorRetryFilter;
import com.captchajobs.core.internal.store.SolveReports;
import com.captchajobs.core.internal.upkeep.Reconciler;
import com.captchajobs.core.internal.upkeep.ReportSweep;
import com.captchajobs.core.internal.upkeep.Retention;
import com.captchajobs.core.internal.upkeep.WatchedThreads;
import com.captchajobs.core.internal.upkeep.WorkerStartup;
import com.captchajobs.core.internal.webhook.WebhookJob;
import com.captchajobs.core.settings.SolveSettings;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jobrunr.server.BackgroundJobServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a worker on a started node: the jobs, the preflight and fleet cap, our JobRunr server, the
 * repair pass with its watch on the other nodes, the webhooks and the retention pass.
 */
final class WorkerAssembly {

  private static final Logger log = LoggerFactory.getLogger(WorkerAssembly.class);

  private WorkerAssembly() {}

  static WorkerParts start(Shared s, Parts parts) {
    NodeSettings settings = s.settings();
    SolveSettings engine = s.engine();
    SolveSettings solve = settings.solve();
    SolveJobsWiring jobs = SolveJobsWiring.of(s);
    if (jobs.pingbacks() != null) {
      parts.show(jobs.pingbacks());
    }
    Reconciler reconciler =
        new Reconciler(
            s.repository(),
            jobs.gate(),
            jobs.handoff(),
            s.jobs(),
            engine.stuckAfter(),
            engine.solveDeadline(),
            s.clock(),
            s.liveness(),
            s.jobRunr().storage(),
            engine.lostSubmitHold(),
            jobs.providers().threadsInfo());
    WebhookJob webhookJob = WebhookAssembly.job(s);
    WorkerStartup startup =
        new WorkerStartup(
            solve,
            jobs.gate(),
            jobs.planCheck(),
            jobs.breaker(),
            reconciler,
            () -> ProviderPreflight.recheck(jobs.providers()),
            jobs.providers().hasOthers() ? jobs.handoff()::handOff : null);
    jobs.handoff().onPhantom(startup::readPhantomsSoon);
    startup.prepare();
    if (settings.solve().preflight()) {
      ProviderPreflight.check(jobs.providers());
    }
    SolveReports reports = new SolveReports(settings.dataSource(), s.schema());
    ReportJob reportJob = new ReportJob(reports, name -> jobs.providers().get(name).client());
    BackgroundJobServer server =
        s.jobRunr()
            .startServer(
                settings.server(),
                Map.of(
                    SubmitJob.class,
                    jobs.submitJob(),
                    PollJob.class,
                    jobs.pollJob(),
                    ReportJob.class,
                    reportJob,
                    PushedPollJob.class,
                    jobs.pushedPollJob()),
                List.of(
                    new PermanentErrorRetryFilter(
                        engine.transientRetries(), solve.maxBackoff().toSeconds()),
                    new ScheduledJobsWake(s.dispatcher()::scheduledEnqueued)));
    if (jobs.pingbacks() != null && jobs.pingbacks().urls().sendsUrls()) {
      // pushes that came while the database was away were refused: ring their fetches
      s.liveness().onRetaken(jobs.pingbacks()::ringMissed);
    }
    s.liveness().hold(server.getId(), reconciler::observeServers);
    s.dispatcher().fetchInto(server, s.notifications());
    // rung pushes fetched at their instant on this worker's own executor (stopped before the
    // notifications it listens on and the pool it calls through)
    parts.stopLater(jobs.pushedFetches().listenOn(s.notifications()));
    WebhookAssembly.start(s, webhookJob, parts);
    startup.startBackground(server::isRunning, () -> restart(server, reconciler));
    parts.stopLater(startup);
    parts.stopLater(
        new WatchedThreads(
                settings.dataSource(),
                s.schema(),
                jobs.breaker().fingerprint(),
                jobs.planCheck()::read)
            .start());
    Retention retention =
        parts.stopLater(
            new Retention(settings.dataSource(), s.schema(), settings.retention().retention())
                .schedule(settings.retention().retentionInterval()));
    ReportSweep reportSweep =
        parts.stopLater(
            new ReportSweep(reports, s.jobs(), s.jobRunr().storage())
                .schedule(solve.reconcileInterval()));
    parts.show(
        jobs.client(),
        jobs.breaker(),
        jobs.gate(),
        jobs.handoff(),
        jobs.waits(),
        jobs.planCheck(),
        jobs.submitJob(),
        jobs.pollJob(),
        jobs.pushedFetches(),
        reportJob,
        reconciler,
        s.liveness(),
        webhookJob,
        retention,
        reportSweep,
        server);
    log.info(
        "CaptchaJobs worker {} started: fleet cap {} threads, schema {}",
        settings.nodeName(),
        solve.threads(),
        s.schema());
    return new WorkerParts(jobs.gate(), jobs.breaker(), jobs.planCheck(), server);
  }

  /**
   * Starts the stopped server again. Its jobs died with it: their solves resume now, not after
   * JobRunr's orphan timeout.
   */
  private static void restart(BackgroundJobServer server, Reconciler reconciler) {
    Reconciler.Taken taken = reconciler.takeBackJobsOf(Set.of(server.getId()));
    if (taken.jobs() > 0) {
      log.info(
          "{} job(s) the stopped server was running taken back, {} solve(s) resumed",
          taken.jobs(),
          taken.resumed());
    }
    server.start();
  }
}
