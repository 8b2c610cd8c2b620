package com.captchajobs.app.web;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Operations;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.model.BatchSummary;
import com.captchajobs.core.model.BreakerRow;
import com.captchajobs.core.model.Gate;
import com.captchajobs.core.model.Requeued;
import com.captchajobs.core.model.SolveFilter;
import com.captchajobs.core.model.SolveRow;
import com.captchajobs.core.model.SolveStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operator views: solves filtered and paged, a batch's summary, the gate's holders, the
 * breakers, and requeueing a failed solve. Only clients with the operator role reach it (the API
 * security chain of {@link ApiConfiguration}).
 */
@RestController
@RequestMapping("/api/admin")
class OperatorController {

  private final CaptchaJobs captchaJobs;
  private final Operations operations;

  OperatorController(CaptchaJobs captchaJobs) {
    this.captchaJobs = captchaJobs;
    this.operations = captchaJobs.operations();
  }

  /** Solves, newest first, filtered by every given parameter. */
  @GetMapping("/solves")
  Map<String, Object> solves(
      @RequestParam(required = false) String status,
      @RequestParam(required = false) String type,
      @RequestParam(required = false) String errorCode,
      @RequestParam(required = false) String keyPrefix,
      @RequestParam(required = false) String batch,
      @RequestParam(required = false) String from,
      @RequestParam(required = false) String to,
      @RequestParam(defaultValue = "0") int page,
      @RequestParam(defaultValue = "50") int size,
      @RequestParam(required = false) String client) {
    if (page < 0) {
      throw ApiProblem.badField("page", "page must be 0 or more");
    }
    if (size < 1 || size > Operations.MAX_PAGE_SIZE) {
      throw ApiProblem.badField("size", "size must be between 1 and " + Operations.MAX_PAGE_SIZE);
    }
    SolveFilter filter =
        new SolveFilter(
            status == null ? null : parseEnum(SolveStatus.class, "status", status),
            type == null ? null : parseEnum(CaptchaType.class, "type", type),
            blankToNull(errorCode),
            blankToNull(keyPrefix),
            blankToNull(batch),
            instant("from", from),
            instant("to", to),
            blankToNull(client));
    List<SolveRow> rows = operations.solves(filter, page, size);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("page", page);
    out.put("size", size);
    out.put("items", rows);
    return out;
  }

  /**
   * A client's batch: counts by status and latency p50/p95 of its solved solves, in seconds. A
   * batch belongs to its client; without {@code client} the label must be used by one client only.
   */
  @GetMapping("/batches/{batch}")
  BatchSummary batch(@PathVariable String batch, @RequestParam(required = false) String client) {
    String owner = blankToNull(client);
    if (owner == null) {
      List<String> owners = operations.batchClients(batch);
      if (owners.size() > 1) {
        throw ApiProblem.badField(
            "client",
            "batch "
                + batch
                + " is used by "
                + owners.size()
                + " clients ("
                + String.join(", ", owners)
                + "): name one with ?client=");
      }
      owner = owners.isEmpty() ? null : owners.get(0);
    }
    Optional<BatchSummary> summary =
        owner == null ? Optional.empty() : operations.batch(owner, batch);
    return summary.orElseThrow(
        () -> new ApiProblem(HttpStatus.NOT_FOUND, "Not found", null, "no solve in " + batch));
  }

  /** The gate: capacity, in flight, waiting, and who holds which slot. */
  @GetMapping("/gate")
  Map<String, Object> gate() {
    Gate gate = operations.gate();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("capacity", gate.capacity());
    out.put("inFlight", gate.inFlight());
    out.put("waiting", gate.waiting());
    out.put("holders", operations.gateHolders());
    return out;
  }

  /** Every key's breaker (fingerprints, never keys). */
  @GetMapping("/breakers")
  List<BreakerRow> breakers() {
    return operations.breakers();
  }

  /** Closes a key's breaker after the cause is fixed. */
  @DeleteMapping("/breakers/{keyFingerprint}")
  Map<String, Object> closeBreaker(@PathVariable String keyFingerprint) {
    boolean known = operations.breaker(keyFingerprint).isPresent();
    if (!known) {
      throw new ApiProblem(
          HttpStatus.NOT_FOUND, "Not found", null, "no breaker for key " + keyFingerprint);
    }
    boolean closedNow = operations.closeBreaker(keyFingerprint);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("keyFingerprint", keyFingerprint);
    out.put("open", false);
    out.put("closedNow", closedNow);
    return out;
  }

  /**
   * A failed solve submitted afresh (same id and key), recorded in requeues and requeuedAt, with a
   * fresh deadline from now; 409 when it is not FAILED, or when its proxy or cookies were scrubbed
   * as it failed so that it can no longer be sent as enqueued.
   */
  @PostMapping("/solves/{id}/requeue")
  ResponseEntity<Map<String, Object>> requeue(@PathVariable String id) {
    UUID solveId;
    try {
      solveId = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new ApiProblem(HttpStatus.NOT_FOUND, "Not found", null, "no solve with id " + id);
    }
    var status = captchaJobs.solves().status(solveId); // 404 when unknown
    Optional<Requeued> requeued;
    try {
      requeued = operations.requeue(solveId);
    } catch (Operations.NotRequeueableException e) {
      throw new ApiProblem(HttpStatus.CONFLICT, "Cannot be rebuilt", null, e.getMessage());
    }
    Requeued r =
        requeued.orElseThrow(
            () ->
                new ApiProblem(
                    HttpStatus.CONFLICT,
                    "Not failed",
                    null,
                    "only a FAILED solve can be requeued; this one is " + status.status()));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", r.solveId());
    out.put("status", "QUEUED");
    out.put("requeues", r.requeues());
    return ResponseEntity.status(HttpStatus.ACCEPTED).body(out);
  }

  private static <E extends Enum<E>> E parseEnum(Class<E> type, String field, String value) {
    try {
      return Enum.valueOf(type, value);
    } catch (IllegalArgumentException e) {
      List<String> names = new ArrayList<>();
      for (E c : type.getEnumConstants()) {
        names.add(c.name());
      }
      throw ApiProblem.badField(field, field + " must be one of " + String.join(", ", names));
    }
  }

  private static Instant instant(String field, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw ApiProblem.badField(
          field, field + " must be an ISO-8601 instant like 2026-01-31T12:00:00Z");
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
