package com.captchajobs.console;

import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.model.Requeued;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's actions on solves and breakers, from their forms: requeue one FAILED solve, requeue
 * a code's after a confirmation, close a key's breaker. Each says what it did on a page; values the
 * operator sent are logged escaped.
 */
final class OperatorActions {

  /**
   * The most solves one "requeue all of a code" requeues, so that the page answers within seconds;
   * the outcome says how many are left for the next press.
   */
  static final int MAX_REQUEUE_ALL = 1_000;

  private static final Logger log = LoggerFactory.getLogger(OperatorActions.class);

  private final ConsoleQueries queries;
  private final OperatorQueries operations;
  private final SolveJobs jobs;

  OperatorActions(ConsoleQueries queries, OperatorQueries operations, SolveJobs jobs) {
    this.queries = queries;
    this.operations = operations;
    this.jobs = jobs;
  }

  Outcome requeueOne(String idText) {
    UUID id;
    try {
      id = UUID.fromString(idText == null ? "" : idText.strip());
    } catch (IllegalArgumentException e) {
      return new Outcome(
          400, Pages.outcome("Requeue refused", "That is not a solve id.", "/console/dead"));
    }
    String back = "/console/solves/" + id;
    try {
      Optional<Requeued> done = operations.requeue(id, jobs);
      if (done.isPresent()) {
        log.info("Console: solve {} requeued ({} requeue(s))", id, done.get().requeues());
        return new Outcome(
            200,
            Pages.outcome(
                "Requeued",
                "Solve "
                    + done.get().businessKey()
                    + " requeued: submitted afresh with a fresh deadline (requeue "
                    + done.get().requeues()
                    + ").",
                back));
      } else {
        return new Outcome(
            409,
            Pages.outcome("Not requeued", "The solve is not FAILED (409): nothing changed.", back));
      }
    } catch (OperatorQueries.NotRebuildableException e) {
      return new Outcome(409, Pages.outcome("Not requeued", e.getMessage() + " (409)", back));
    }
  }

  Outcome requeueCode(Map<String, String> form) {
    String code = ConsoleQueries.Filter.blankToNull(form.get("code"));
    if (code == null) {
      return new Outcome(
          400, Pages.outcome("Requeue refused", "No error code given.", "/console/dead"));
    }
    if (!"yes".equals(form.get("confirm"))) {
      long count =
          queries.deadByCode().stream()
              .filter(c -> c.code().equals(code))
              .mapToLong(ConsoleQueries.CodeCount::count)
              .sum();
      return new Outcome(200, Pages.confirm(code, count));
    }
    int requeued = 0;
    int refused = 0;
    int moved = 0;
    for (UUID id : queries.deadIds(code, MAX_REQUEUE_ALL)) {
      try {
        if (operations.requeue(id, jobs).isPresent()) {
          requeued++;
        } else {
          moved++;
        }
      } catch (OperatorQueries.NotRebuildableException e) {
        refused++;
      }
    }
    log.info(
        "Console: requeued {} FAILED solve(s) of code {}, {} could not be rebuilt",
        requeued,
        Requests.escaped(code),
        refused);
    return new Outcome(
        refused > 0 && requeued == 0 ? 409 : 200,
        Pages.outcome(
            "Requeued " + code,
            "Requeued "
                + requeued
                + " solve(s) with code "
                + code
                + "; "
                + refused
                + " could not be rebuilt (409: proxy or cookies removed when they failed)"
                + (moved > 0 ? "; " + moved + " were no longer FAILED" : "")
                + "."
                + (requeued + refused + moved == MAX_REQUEUE_ALL
                    ? " At most "
                        + MAX_REQUEUE_ALL
                        + " are requeued at a time: press again for the rest."
                    : ""),
            "/console/dead"));
  }

  Outcome closeBreaker(String fingerprint) {
    String fp = ConsoleQueries.Filter.blankToNull(fingerprint);
    if (fp == null || fp.length() > 64) {
      return new Outcome(
          400, Pages.outcome("Not closed", "No key fingerprint given.", "/console/"));
    }
    boolean closed = operations.breaker(fp).closeBreaker();
    log.info(
        "Console: breaker of key {} {}", Requests.escaped(fp), closed ? "closed" : "was not open");
    return new Outcome(
        closed ? 200 : 409,
        Pages.outcome(
            closed ? "Breaker closed" : "Breaker not open",
            closed
                ? "The breaker of key " + fp + " is closed: submissions resume."
                : "The breaker of key " + fp + " was not open (409): nothing changed.",
            "/console/"));
  }
}
