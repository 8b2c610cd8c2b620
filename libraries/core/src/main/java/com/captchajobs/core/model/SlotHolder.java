package com.captchajobs.core.model;

import java.time.Instant;
import java.util.UUID;

/**
 * Who holds a slot of the fleet gate: the solve, the node, since when and until when (the lease);
 * {@code phantom} for a slot held for a provider thread still busy with a task whose submit was
 * lost.
 */
public record SlotHolder(
    int slot, UUID solveId, String node, Instant since, Instant leaseUntil, boolean phantom) {}
