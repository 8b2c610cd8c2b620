package com.captchajobs.core.internal.engine;

import com.captchajobs.core.client.CaptchaAiApiException;
import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaAiException;
import com.captchajobs.core.client.CaptchaAiTransportException;
import com.captchajobs.core.internal.store.SolveReports;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.UUID;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The report job: sends a recorded report to the provider ({@code res.php action=reportbad} or
 * {@code reportgood} with the stored task id), at most once. The run first takes the report
 * (PENDING → SENDING) in one statement, then calls, then records the answer:
 *
 * <ul>
 *   <li>recorded by the provider: SENT;
 *   <li>an answer in the provider's own words that says the call did not count (a server or
 *       rate-limit code), an HTTP 4xx (refused before it was handled) or a connection that never
 *       opened: PENDING again, and JobRunr retries the job with its backoff;
 *   <li>a permanent code (an unknown task, a rejected key): FAILED with the code;
 *   <li>anything that may come after the provider recorded it: UNCERTAIN, never sent again. That is
 *       no answer after the request went out (a timeout, a connection cut mid-call), and an HTTP
 *       5xx, an empty or an unreadable body: a gateway answers 502 or 504 whether or not the
 *       provider behind it recorded the call. CaptchaAI offers no way to look a report up, so the
 *       outcome stays unknown.
 * </ul>
 *
 * A run that finds the report SENDING (its predecessor died or lost the database between calling
 * and recording) marks it UNCERTAIN and sends nothing: a report never reaches the provider twice,
 * and the row tells when it may not have reached it at all.
 */
public class ReportJob implements JobRequestHandler<ReportJobRequest> {

  private static final Logger log = LoggerFactory.getLogger(ReportJob.class);

  private final SolveReports reports;
  private final java.util.function.Function<String, CaptchaAiClient> clients;

  /**
   * @param clients the client of each provider by name (null: the primary): a report goes to the
   *     provider that accepted the task, with its key
   */
  public ReportJob(
      SolveReports reports, java.util.function.Function<String, CaptchaAiClient> clients) {
    this.reports = reports;
    this.clients = clients;
  }

  @Override
  public void run(ReportJobRequest request) {
    send(request.solveId());
  }

  /**
   * Sends the solve's report if it is still to be sent.
   *
   * @throws CaptchaAiException when the call did not count and may be retried
   */
  void send(UUID solveId) {
    Optional<SolveReports.Sending> taken = reports.take(solveId);
    if (taken.isEmpty()) {
      if (reports.giveUpInterrupted(solveId)) {
        log.warn(
            "The report of solve {} was being sent by a run that did not finish: it is not sent"
                + " again (at most once), and is recorded as UNCERTAIN",
            solveId);
      }
      return;
    }
    SolveReports.Sending s = taken.get();
    try {
      clients.apply(s.provider()).report(s.taskId(), s.verdict());
    } catch (CaptchaAiException e) {
      if (neverCounted(e)) {
        reports.retryLater(solveId, e.errorCode());
        throw e;
      }
      String delivery =
          e instanceof CaptchaAiApiException ? SolveReports.FAILED : SolveReports.UNCERTAIN;
      reports.end(solveId, delivery, e.errorCode());
      log.warn(
          "{} of task {} (solve {}) ended {}: {}",
          s.verdict().action(),
          s.taskId(),
          solveId,
          delivery,
          e.getMessage());
      return;
    }
    reports.sent(solveId);
    log.debug("{} of task {} (solve {}) sent", s.verdict().action(), s.taskId(), solveId);
  }

  /**
   * Whether the provider surely did not record the call: it answered in its own words that it did
   * not (a transient code), something refused the request before handing it on (HTTP 4xx), or no
   * connection was made. A timeout, a connection cut after the request went out, an HTTP 5xx (a
   * gateway's 502 or 504 comes after the provider recorded the call as well as before) and an empty
   * or unreadable body may all follow a recorded report.
   */
  static boolean neverCounted(CaptchaAiException e) {
    if (e instanceof CaptchaAiApiException) {
      return !e.errorClass().permanent();
    }
    String code = e.errorCode();
    if (CaptchaAiTransportException.TIMEOUT.equals(code)) {
      return false;
    }
    if (CaptchaAiTransportException.NETWORK.equals(code)) {
      for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
        if (t instanceof ConnectException
            || t instanceof UnknownHostException
            || t instanceof NoRouteToHostException) {
          return true;
        }
      }
      return false;
    }
    // HTTP_4xx: refused before it was handled (a rate limit, a firewall); HTTP_5xx, EMPTY_BODY,
    // UNRECOGNISED_BODY: maybe recorded
    return code != null && code.startsWith("HTTP_4");
  }
}
