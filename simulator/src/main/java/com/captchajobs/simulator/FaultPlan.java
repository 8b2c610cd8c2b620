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

  /** The fault for this call, or null. Rolls once per call when probabilities are configured. */
  Fault next(Endpoint endpoint) {
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
