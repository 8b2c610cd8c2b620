package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.store.Solve;
import java.time.Instant;
import java.util.UUID;

/**
 * A read-only view of a solve. Deliberately without the token, the provider parameters (a proxy may
 * carry a password) and the callback URL (its query may carry a secret).
 *
 * @param errorCode the provider's (or our) code when the solve failed or last waited, else null
 * @param errorClass credential, request, image, proxy, unsolvable, threads or transient, else null
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
    int threadWaits) {

  static SolveStatusView of(Solve s) {
    return new SolveStatusView(
        s.id(),
        s.businessKey(),
        s.type(),
        SolveStatus.of(s.status()),
        s.priority(),
        s.createdAt(),
        s.updatedAt(),
        s.submittedAt(),
        s.solvedAt(),
        s.expiresAt(),
        s.claimedAt(),
        s.errorCode(),
        s.errorClass(),
        s.submits(),
        s.polls(),
        s.threadWaits());
  }

  /** Whether nothing more will happen to the solve. */
  public boolean isFinal() {
    return status.isFinal();
  }
}
