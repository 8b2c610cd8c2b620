package com.captchajobs.core.internal.upkeep;

import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.SolveReports;
import com.captchajobs.core.internal.time.Timers;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.JobNotFoundException;
import org.jobrunr.storage.StorageProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure that every recorded report has a job that sends it. A report is recorded on the
 * solve's row first and its job created right after; a node that dies between the two leaves a
 * PENDING report that nothing would send. Every pass looks at the reports PENDING for longer than
 * {@link #GRACE}:
 *
 * <ul>
 *   <li>no job under the report's id ({@link SolveJobs#reportJobId}): the job is created now (the
 *       id is derived from the solve, so two nodes sweeping at once create one);
 *   <li>a job that JobRunr gave up on (FAILED or DELETED while the report still waits): the report
 *       ends FAILED with {@link SolveReports#RETRIES_EXHAUSTED}, never sent;
 *   <li>a job that SUCCEEDED while the report still waits: it ran when there was nothing to send
 *       (the report was recorded, undone after an error that followed the job's commit, and
 *       recorded again; JobRunr then skipped the second job of the same id). The finished job is
 *       deleted and created afresh, and sends the report: taking it (PENDING → SENDING) is one
 *       statement, so two sweeps racing still send it once;
 *   <li>any other job (waiting, scheduled for a retry, running): it will send it, nothing to do.
 * </ul>
 *
 * So no report stays PENDING longer than {@link #GRACE} and a pass.
 */
public final class ReportSweep implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ReportSweep.class);

  /** How long a report may wait for its job before the sweep looks at it. */
  static final Duration GRACE = Duration.ofMinutes(1);

  private static final int PAGE = 200;

  private final SolveReports reports;
  private final SolveJobs jobs;
  private final StorageProvider storage;
  private ScheduledExecutorService timer;

  public ReportSweep(SolveReports reports, SolveJobs jobs, StorageProvider storage) {
    this.reports = reports;
    this.jobs = jobs;
    this.storage = storage;
  }

  /** What one pass did. */
  public record Swept(int jobsCreated, int abandoned) {}

  /** One pass over the reports that waited longer than {@link #GRACE}. */
  public Swept sweep() {
    int created = 0;
    int abandoned = 0;
    for (SolveReports.Waiting w : reports.waitingSince(GRACE, PAGE)) {
      UUID jobId = SolveJobs.reportJobId(w.id());
      StateName state = stateOf(jobId);
      if (state == null) {
        jobs.report(w.id(), w.type(), w.businessKey(), w.verdict().action());
        created++;
        log.info("The report of solve {} had no job: created {}", w.id(), jobId);
      } else if (state == StateName.SUCCEEDED) {
        storage.deletePermanently(jobId);
        jobs.report(w.id(), w.type(), w.businessKey(), w.verdict().action());
        created++;
        log.info(
            "The report of solve {} waited behind a job {} that had finished without it: created"
                + " afresh",
            w.id(),
            jobId);
      } else if ((state == StateName.FAILED || state == StateName.DELETED)
          && reports.abandon(w.id(), SolveReports.RETRIES_EXHAUSTED)) {
        abandoned++;
        log.warn(
            "The report of solve {} was not sent: its job {} is {}; recorded FAILED ({})",
            w.id(),
            jobId,
            state,
            SolveReports.RETRIES_EXHAUSTED);
      }
    }
    return new Swept(created, abandoned);
  }

  private StateName stateOf(UUID jobId) {
    try {
      return storage.getJobById(jobId).getState();
    } catch (JobNotFoundException e) {
      return null;
    }
  }

  /** Sweeps every {@code interval}, the first time after {@code interval} too. */
  public synchronized ReportSweep schedule(Duration interval) {
    timer = Timers.daemon("captchajobs-report-sweep");
    Timers.every(timer, interval, this::sweepLogged);
    return this;
  }

  private void sweepLogged() {
    try {
      sweep();
    } catch (RuntimeException e) {
      log.warn("Report sweep failed, the next one will try again: {}", e.toString());
    }
  }

  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
