package com.captchajobs.simulator;

import java.time.Duration;
import java.util.Map;

/** The immutable settings a {@link CaptchaAiSimulator.Builder} collected. */
record SimulatorConfig(
    String name,
    String address,
    int port,
    Map<String, KeyPlan> accounts,
    double timeScale,
    Map<String, SolveTimes.Range> solveTimes,
    long seed,
    OverCapMode overCapMode,
    Map<Fault, Double> faultProbabilities,
    Duration slowDelay,
    Duration taskTtl,
    int badKeyThreshold,
    Duration banDuration,
    boolean stringIds,
    PushSender.PushFaults pushFaults) {}
