package com.captchajobs.simulator;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Decides the fault of each call: a pending one-shot injection first, else one seeded roll. */
final class FaultPlan {
  private final Map<Endpoint, Queue<Fault>> injected = new EnumMap<>(Endpoint.class);
  private final Map<Fault, Double> probabilities;
  private final Random random;
  private volatile Fault outage;

  FaultPlan(Map<Fault, Double> probabilities, Random random) {
    this.probabilities = new LinkedHashMap<>(probabilities);
    this.random = random;
    for (Endpoint e : Endpoint.values()) {
      injected.put(e, new ConcurrentLinkedQueue<>());
    }
  }

  void injectNext(Endpoint endpoint, Fault fault) {
    if (endpoint == Endpoint.RES && fault == Fault.LOST_RESPONSE) {
      throw new IllegalArgumentException("LOST_RESPONSE applies to Endpoint.IN only");
    }
    injected.get(endpoint).add(fault);
  }

  /** Every call to every endpoint gets {@code fault} until {@link #endOutage()}. */
  void startOutage(Fault fault) {
    if (fault == Fault.LOST_RESPONSE) {
      throw new IllegalArgumentException("an outage answers every call: LOST_RESPONSE is IN only");
    }
    outage = fault;
  }

  void endOutage() {
    outage = null;
  }

  /**
   * The fault for this call, or null: an outage first, then a pending one-shot injection, else one
   * seeded roll when probabilities are configured.
   */
  Fault next(Endpoint endpoint) {
    Fault during = outage;
    if (during != null) {
      return during;
    }
    Fault fault = injected.get(endpoint).poll();
    if (fault != null || probabilities.isEmpty()) {
      return fault;
    }
    double roll = random.nextDouble();
    double cumulative = 0;
    for (Map.Entry<Fault, Double> e : probabilities.entrySet()) {
      cumulative += e.getValue();
      if (roll < cumulative) {
        return endpoint == Endpoint.RES && e.getKey() == Fault.LOST_RESPONSE ? null : e.getKey();
      }
    }
    return null;
  }

  void clearInjected() {
    injected.values().forEach(Queue::clear);
  }
}
