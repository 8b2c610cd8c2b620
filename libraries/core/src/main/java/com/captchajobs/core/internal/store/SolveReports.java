package com.captchajobs.core.internal.store;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.model.ReportRefusal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A caller's report on a claimed answer and its delivery to the provider, one statement each on the
 * solve's row (database clock). The delivery moves PENDING → SENDING → SENT, or ends FAILED (the
 * provider refused it) or UNCERTAIN (a call that may have reached the provider without an answer,
 * or a run that died while sending). A SENDING row found by a new run is never sent again: toward
 * the provider a report goes at most once, and the row says when it may not have gone.
 */
public final class SolveReports {

  public static final String PENDING = "PENDING";
  public static final String SENDING = "SENDING";
  public static final String SENT = "SENT";
  public static final String FAILED = "FAILED";
  public static final String UNCERTAIN = "UNCERTAIN";

  /** The error recorded when JobRunr gave up on a report's job while the report waited to go. */
  public static final String RETRIES_EXHAUSTED = "RETRIES_EXHAUSTED";

  /** The error recorded when a run found the delivery taken by a run that never finished. */
  public static final String INTERRUPTED = "INTERRUPTED";

  private final Db db;

  public SolveReports(DataSource dataSource, Schema schema) {
    this.db = new Db(dataSource, schema);
  }

  /**
   * What {@link #record} came to: recorded, with the solve's type and business key, when {@code
   * refusal} is null; else refused, and why.
   */
  public record Recorded(ReportRefusal refusal, CaptchaType type, String businessKey) {}

  /**
   * Records the verdict once: only on a CLAIMED solve, not reported before, claimed less than
   * {@code window} ago, and owned by {@code client} (any client when it is null). One statement, so
   * two reports at once record one. Empty when the solve is not found (or not {@code client}'s).
   */
  public Optional<Recorded> record(UUID id, String client, Verdict verdict, Duration window) {
    Optional<Recorded> done =
        db.queryOne(
            "UPDATE captchajobs.solve SET report_verdict = ?, reported_at = now(),"
                + " report_delivery = 'PENDING'"
                + " WHERE id = ? AND (? OR client = ?) AND status = 'CLAIMED'"
                + " AND report_verdict IS NULL"
                + " AND claimed_at > now() - ? * interval '1 millisecond'"
                + " RETURNING type, business_key",
            rs ->
                new Recorded(
                    null, CaptchaType.valueOf(rs.getString("type")), rs.getString("business_key")),
            verdict,
            id,
            client == null,
            client == null ? "" : client,
            window.toMillis());
    if (done.isPresent()) {
      return done;
    }
    return db.queryOne(
        "SELECT status, report_verdict FROM captchajobs.solve"
            + " WHERE id = ? AND (? OR client = ?)",
        rs ->
            new Recorded(
                !"CLAIMED".equals(rs.getString("status"))
                    ? ReportRefusal.NOT_CLAIMED
                    : rs.getString("report_verdict") != null
                        ? ReportRefusal.ALREADY_REPORTED
                        : ReportRefusal.WINDOW_PASSED,
                null,
                null),
        id,
        client == null,
        client == null ? "" : client);
  }

  /** Undoes a report no job was created for (it is still PENDING); best effort. */
  public void forget(UUID id) {
    db.update(
        "UPDATE captchajobs.solve SET report_verdict = NULL, reported_at = NULL,"
            + " report_delivery = NULL, report_error = NULL"
            + " WHERE id = ? AND report_delivery = 'PENDING'",
        id);
  }

  /** A report taken for sending: the task it is about and the verdict. */
  public record Sending(String taskId, Verdict verdict, CaptchaType type, String provider) {}

  /**
   * Takes a PENDING report for sending (it becomes SENDING); empty when there is none: never
   * reported, already sent or ended, or taken by another run.
   */
  public Optional<Sending> take(UUID id) {
    return db.queryOne(
        "UPDATE captchajobs.solve SET report_delivery = 'SENDING'"
            + " WHERE id = ? AND report_delivery = 'PENDING' AND task_id IS NOT NULL"
            + " RETURNING task_id, report_verdict, type, provider",
        rs ->
            new Sending(
                rs.getString("task_id"),
                Verdict.valueOf(rs.getString("report_verdict")),
                CaptchaType.valueOf(rs.getString("type")),
                rs.getString("provider")),
        id);
  }

  /**
   * A report left SENDING by a run that did not finish (it died, or lost the database, between
   * taking it and recording the answer) becomes UNCERTAIN, never sent again; true when this call
   * did it.
   */
  public boolean giveUpInterrupted(UUID id) {
    return db.update(
            "UPDATE captchajobs.solve SET report_delivery = 'UNCERTAIN', report_error = ?,"
                + " report_delivered_at = now() WHERE id = ? AND report_delivery = 'SENDING'",
            INTERRUPTED,
            id)
        == 1;
  }

  /** The provider recorded it (wins over UNCERTAIN set meanwhile by a run that saw SENDING). */
  public void sent(UUID id) {
    db.update(
        "UPDATE captchajobs.solve SET report_delivery = 'SENT', report_delivered_at = now(),"
            + " report_error = NULL WHERE id = ? AND report_delivery IN ('SENDING', 'UNCERTAIN')",
        id);
  }

  /** The call surely did not reach the provider: PENDING again for the next try, with the code. */
  public void retryLater(UUID id, String errorCode) {
    db.update(
        "UPDATE captchajobs.solve SET report_delivery = 'PENDING', report_error = ?"
            + " WHERE id = ? AND report_delivery = 'SENDING'",
        errorCode,
        id);
  }

  /** The delivery ends FAILED or UNCERTAIN with the code; it is never tried again. */
  public void end(UUID id, String delivery, String errorCode) {
    db.update(
        "UPDATE captchajobs.solve SET report_delivery = ?, report_error = ?,"
            + " report_delivered_at = now() WHERE id = ? AND report_delivery = 'SENDING'",
        delivery,
        errorCode,
        id);
  }

  /** A report still waiting to be sent. */
  public record Waiting(UUID id, CaptchaType type, String businessKey, Verdict verdict) {}

  /**
   * Reports recorded more than {@code olderThan} ago and still PENDING, oldest first: each should
   * have a job that sends it, and the sweep checks that it does (migration V9's partial index).
   */
  public List<Waiting> waitingSince(Duration olderThan, int limit) {
    return db.query(
        "SELECT id, type, business_key, report_verdict FROM captchajobs.solve"
            + " WHERE report_delivery = 'PENDING'"
            + " AND reported_at < now() - ? * interval '1 millisecond'"
            + " ORDER BY reported_at LIMIT ?",
        rs ->
            new Waiting(
                (UUID) rs.getObject("id"),
                CaptchaType.valueOf(rs.getString("type")),
                rs.getString("business_key"),
                Verdict.valueOf(rs.getString("report_verdict"))),
        olderThan.toMillis(),
        limit);
  }

  /** A PENDING report whose job JobRunr gave up on ends FAILED with the code; never sent. */
  public boolean abandon(UUID id, String errorCode) {
    return db.update(
            "UPDATE captchajobs.solve SET report_delivery = 'FAILED', report_error = ?,"
                + " report_delivered_at = now() WHERE id = ? AND report_delivery = 'PENDING'",
            errorCode,
            id)
        == 1;
  }
}
