package com.captchajobs.core.internal.enqueue;

import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.SolveReports;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * The accepting side of a report on an answer: records it on the solve's row (once, within the
 * window after the claim), then creates the job that sends it, under an id derived from the solve
 * id, so it is created once. Any node can accept a report; a worker node sends it.
 */
public final class AnswerReports {

  private final SolveReports reports;
  private final SolveJobs jobs;
  private final Duration window;

  public AnswerReports(SolveReports reports, SolveJobs jobs, Duration window) {
    this.reports = reports;
    this.jobs = jobs;
    this.window = window;
  }

  /**
   * Records the report of {@code client} (any client when null) and creates its job when it was
   * recorded; empty when the solve is not found (or not the client's).
   */
  public Optional<SolveReports.Recorded> report(UUID id, String client, Verdict verdict) {
    Optional<SolveReports.Recorded> recorded = reports.record(id, client, verdict, window);
    if (recorded.isPresent() && recorded.get().refusal() == null) {
      try {
        jobs.report(id, recorded.get().type(), recorded.get().businessKey(), verdict.action());
      } catch (RuntimeException e) {
        // No job, so nothing would send it: undo the record, so that the caller may report again.
        try {
          reports.forget(id);
        } catch (RuntimeException undo) {
          e.addSuppressed(undo);
        }
        throw e;
      }
    }
    return recorded;
  }
}
