package com.captchajobs.core.model;

import com.captchajobs.core.client.CaptchaType;
import java.time.Instant;

/**
 * Which solves an operator's list shows ({@code Operations.solves}); every filter is optional
 * (null).
 *
 * @param keyPrefix matches the start of the business key
 * @param from created at or after
 * @param to created before
 * @param client the API client that enqueued them
 */
public record SolveFilter(
    SolveStatus status,
    CaptchaType type,
    String errorCode,
    String keyPrefix,
    String batch,
    Instant from,
    Instant to,
    String client) {

  /** No filter: every solve. */
  public static SolveFilter all() {
    return new SolveFilter(null, null, null, null, null, null, null, null);
  }
}
