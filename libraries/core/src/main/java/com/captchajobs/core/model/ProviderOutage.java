package com.captchajobs.core.model;

import java.time.Instant;

/** The provider did not answer {@code threadsinfo}: since when, and with what code. */
public record ProviderOutage(Instant since, String errorCode) {}
