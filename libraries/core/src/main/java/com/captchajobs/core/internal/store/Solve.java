package com.captchajobs.core.internal.store;

import com.captchajobs.core.client.CaptchaTask;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
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
    SolveStatusView.Report report,
    String provider) {

  /**
   * The same row at {@code provider} (the provider whose slot it holds now: read after the slot was
   * taken).
   */
  public Solve at(String provider) {
    return new Solve(
        id,
        businessKey,
        type,
        params,
        priority,
        callbackUrl,
        status,
        taskId,
        submittedAt,
        solvedAt,
        expiresAt,
        claimedAt,
        errorCode,
        errorClass,
        submits,
        polls,
        threadWaits,
        unsolvableResubmits,
        createdAt,
        updatedAt,
        report,
        provider);
  }

  /**
   * The provider this solve runs at, for events and meters: its stored provider, or the primary
   * ({@value com.captchajobs.core.settings.ProviderSettings#PRIMARY}) when none is stored.
   */
  public String providerOrPrimary() {
    return provider == null ? com.captchajobs.core.settings.ProviderSettings.PRIMARY : provider;
  }

  /** The provider task this solve describes (validated when it was stored). */
  public CaptchaTask task() {
    return CaptchaTask.of(type, params);
  }

  /**
   * What the public API shows of this row: everything but the parameters, the callback URL, the
   * task id and the resubmits (the one pair of the core kept on purpose, see docs/architecture.md).
   */
  public SolveStatusView view() {
    return new SolveStatusView(
        id,
        businessKey,
        type,
        status,
        priority,
        createdAt,
        updatedAt,
        submittedAt,
        solvedAt,
        expiresAt,
        claimedAt,
        errorCode,
        errorClass,
        submits,
        polls,
        threadWaits,
        report,
        provider);
  }

  @Override
  public String toString() {
    return "Solve[" + id + " " + type + " " + businessKey + " " + status + "]";
  }
}
