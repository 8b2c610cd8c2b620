package com.captchajobs.core.model;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.Verdict;
import java.time.Instant;
import java.util.UUID;

/**
 * A read-only view of a solve. Deliberately without the token, the provider parameters (a proxy may
 * carry a password) and the callback URL (its query may carry a secret).
 *
 * @param errorCode the provider's (or our) code when the solve failed or last waited, else null
 * @param errorClass credential, request, image, proxy, unsolvable, threads or transient, else null
 * @param report the caller's report on the claimed answer ({@code Solves.report}), else null
 * @param provider the provider whose slot it holds or whose task it runs ({@code "captchaai"}, the
 *     primary, or a name of {@code captchajobs.providers.*}); null until it took a slot
 */
public record SolveStatusView(
    UUID id,
    String businessKey,
    CaptchaType type,
    SolveStatus status,
    int priority,
    Instant createdAt,
    Instant updatedAt,
    Instant submittedAt,
    Instant solvedAt,
    Instant expiresAt,
    Instant claimedAt,
    String errorCode,
    ErrorClass errorClass,
    int submits,
    int polls,
    int threadWaits,
    Report report,
    String provider) {

  /**
   * A report on the solve's answer and its way to the provider.
   *
   * @param verdict what the caller said: BAD or GOOD
   * @param reportedAt when the report was recorded
   * @param delivery where it is on its way to the provider
   * @param deliveredAt when the delivery ended (SENT, FAILED or UNCERTAIN), else null
   * @param error the last error code met while sending it (the provider's or a transport code),
   *     else null
   */
  public record Report(
      Verdict verdict,
      Instant reportedAt,
      ReportDelivery delivery,
      Instant deliveredAt,
      String error) {}

  /** Whether nothing more will happen to the solve. */
  public boolean isFinal() {
    return status.isFinal();
  }
}
