package com.captchajobs.core.internal.assembly;

import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PlanCheck;
import org.jobrunr.server.BackgroundJobServer;

/**
 * The parts of a started worker that the starter's health, metrics and breaker endpoint read.
 *
 * @param breaker the credential breaker of this key
 * @param planCheck the last threadsinfo answer
 */
public record WorkerParts(
    FleetGate gate, Breaker breaker, PlanCheck planCheck, BackgroundJobServer server) {}
