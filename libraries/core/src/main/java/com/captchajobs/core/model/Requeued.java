package com.captchajobs.core.model;

import java.util.UUID;

/**
 * What a requeue did: the solve, its count of requeues so far, and its business key (which the
 * operator console shows).
 */
public record Requeued(UUID solveId, int requeues, String businessKey) {}
