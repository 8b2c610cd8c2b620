package com.captchajobs.core.internal.notify;

import java.util.Optional;
import java.util.UUID;

/**
 * What the fleet's workers are told when a push rang (sent on {@link
 * SolveNotifications#PUSH_CHANNEL} once the ring is committed, before the fetch's fallback job is
 * created): the submission whose task to fetch, the task's call count the push rang after ({@code
 * callNo}, see {@code store.PushRings}), the task's last recorded call when the push came (epoch
 * ms, 0: none) and the instant the fetch is meant for. Ids and instants only: never the key, a
 * token, or anything the provider pushed.
 */
public record PushNotice(
    UUID solveId, int submitNo, int callNo, long lastCallEpochMilli, long intendedAtEpochMilli) {

  /** The notification's payload: the five values, colon-separated. */
  public String payload() {
    return "%s:%s:%s:%s:%s"
        .formatted(solveId, submitNo, callNo, lastCallEpochMilli, intendedAtEpochMilli);
  }

  /** The notice a payload carries; empty when it is not one. */
  public static Optional<PushNotice> parse(String payload) {
    if (payload == null) {
      return Optional.empty();
    }
    String[] v = payload.split(":", -1);
    if (v.length != 5) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new PushNotice(
              UUID.fromString(v[0]),
              Integer.parseInt(v[1]),
              Integer.parseInt(v[2]),
              Long.parseLong(v[3]),
              Long.parseLong(v[4])));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
