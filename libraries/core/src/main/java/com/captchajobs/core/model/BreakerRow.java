package com.captchajobs.core.model;

import java.time.Instant;

/** One key's breaker, by the key's fingerprint (never the key). */
public record BreakerRow(
    String keyFingerprint,
    boolean open,
    String errorCode,
    String reason,
    Instant openedAt,
    Instant closedAt) {}
