package com.captchajobs.core;

import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PlanCheck;
import com.captchajobs.core.model.BreakerRow;
import com.captchajobs.core.model.Gate;
import com.captchajobs.core.model.ProviderOutage;
import java.time.Duration;
import java.util.Optional;

/**
 * This node's worker: its API key's breaker (by fingerprint), the provider's answers to its plan
 * checks, and its turn as the fleet's reporter of the gate's figures.
 */
public final class LocalWorker {

  private final OperatorQueries queries;
  private final Breaker breaker;
  private final FleetGate gate;
  private final PlanCheck planCheck;

  LocalWorker(OperatorQueries queries, Breaker breaker, FleetGate gate, PlanCheck planCheck) {
    this.queries = queries;
    this.breaker = breaker;
    this.gate = gate;
    this.planCheck = planCheck;
  }

  /** The fingerprint of this worker's API key (never the key). */
  public String keyFingerprint() {
    return breaker.fingerprint();
  }

  /** This key's breaker; empty while it never opened. */
  public Optional<BreakerRow> breaker() {
    return queries.breakerRows().of(keyFingerprint());
  }

  /** Closes this key's breaker after the cause is fixed; true when it was open. */
  public boolean closeBreaker() {
    return breaker.closeBreaker();
  }

  /** The provider's last answer to {@code threadsinfo}; empty before the first. */
  public Optional<ThreadsInfo> lastPlan() {
    return Optional.ofNullable(planCheck.last());
  }

  /** Present while the provider's last {@code threadsinfo} failed for want of an answer. */
  public Optional<ProviderOutage> providerOutage() {
    return planCheck.unreachable();
  }

  /**
   * The gate's fleet-wide figures when this node is the fleet's reporter of them, empty when
   * another node is. Reading takes the reporter's lease when it is free or lapsed, and renews it
   * when this node holds it, so exactly one node reports while it keeps reading at least once per
   * {@code reporterLease}.
   */
  public Optional<Gate> reportGate(Duration reporterLease) {
    FleetGate.Reading r = gate.read(reporterLease);
    return r.reporter() ? Optional.of(r.gate()) : Optional.empty();
  }
}
