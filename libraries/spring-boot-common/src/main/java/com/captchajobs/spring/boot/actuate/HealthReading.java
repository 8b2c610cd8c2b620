package com.captchajobs.spring.boot.actuate;

import com.captchajobs.core.LocalWorker;
import com.captchajobs.core.Operations;
import com.captchajobs.core.model.BreakerRow;
import com.captchajobs.core.model.Gate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the worker's health indicators report, apart from Spring Boot's health types (which moved
 * between Boot 3 and 4): each starter's indicators turn a reading into Boot's {@code Health}.
 *
 * @param up whether the part is healthy
 * @param details the details to show, never the key
 */
public record HealthReading(boolean up, Map<String, Object> details) {

  /** DOWN while the breaker is open; details show gate use and the last plan check. */
  public static HealthReading ofBreaker(Operations operations, LocalWorker worker) {
    Map<String, Object> details = new LinkedHashMap<>();
    var open = worker.breaker().filter(BreakerRow::open);
    open.ifPresentOrElse(
        s -> {
          details.put("breaker", "open");
          details.put("errorCode", String.valueOf(s.errorCode()));
          details.put("reason", String.valueOf(s.reason()));
          details.put("openedAt", String.valueOf(s.openedAt()));
        },
        () -> details.put("breaker", "closed"));
    details.put("keyFingerprint", worker.keyFingerprint());
    Gate gate = operations.gate();
    details.put("gateInFlight", gate.inFlight());
    details.put("gateCapacity", gate.capacity());
    details.put("gateWaiting", gate.waiting());
    worker
        .lastPlan()
        .ifPresent(
            last -> {
              details.put("providerThreads", last.threads());
              details.put("providerWorkingThreads", last.workingThreads());
            });
    return new HealthReading(open.isEmpty(), details);
  }

  /** DOWN while CaptchaAI does not answer the periodic {@code threadsinfo}. */
  public static HealthReading ofProvider(LocalWorker worker) {
    return worker
        .providerOutage()
        .map(
            u -> {
              Map<String, Object> details = new LinkedHashMap<>();
              details.put("provider", "unreachable");
              details.put("errorCode", String.valueOf(u.errorCode()));
              details.put("since", String.valueOf(u.since()));
              return new HealthReading(false, details);
            })
        .orElseGet(() -> new HealthReading(true, Map.of("provider", "answering")));
  }
}
