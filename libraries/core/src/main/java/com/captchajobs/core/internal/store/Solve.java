package com.captchajobs.core.internal.store;

import com.captchajobs.core.client.CaptchaTask;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.model.SolveStatus;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * One solve row, the source of truth for a business key. The token is deliberately not part of it.
 */
public record Solve(
    UUID id,
    String businessKey,
    CaptchaType type,
    Map<String, String> params,
    int priority,
    String callbackUrl,
    SolveStatus status,
    String taskId,
    Instant submittedAt,
    Instant solvedAt,
    Instant expiresAt,
    Instant claimedAt,
    String errorCode,
    ErrorClass errorClass,
    int submits,
    int polls,
    int threadWaits,
    int unsolvableResubmits,
    Instant createdAt,
    Instant updatedAt,
    Report report) {

  /**
   * The caller's report on the claimed answer and its delivery to the provider.
   *
   * @param verdict BAD or GOOD
   * @param reportedAt when the report was accepted (database clock)
   * @param delivery PENDING, SENDING, SENT, FAILED or UNCERTAIN (see {@link SolveReports})
   * @param deliveredAt when the delivery ended, else null
   * @param error the last error code met while sending, else null
   */
  public record Report(
      Verdict verdict, Instant reportedAt, String delivery, Instant deliveredAt, String error) {}

  /** The provider task this solve describes (validated when it was stored). */
  public CaptchaTask task() {
    return CaptchaTask.of(type, params);
  }

  @Override
  public String toString() {
    return "Solve[" + id + " " + type + " " + businessKey + " " + status + "]";
  }
}
