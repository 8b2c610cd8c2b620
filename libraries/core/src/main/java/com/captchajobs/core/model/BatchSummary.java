package com.captchajobs.core.model;

import java.util.Map;

/**
 * A client's batch: its solves by status (every status, 0 included), and the latency (submit to
 * token) p50 and p95 of its solved ones by nearest rank, in seconds, null while none is solved.
 */
public record BatchSummary(
    String batch,
    long total,
    Map<SolveStatus, Long> byStatus,
    Double latencyP50Seconds,
    Double latencyP95Seconds,
    String client) {}
