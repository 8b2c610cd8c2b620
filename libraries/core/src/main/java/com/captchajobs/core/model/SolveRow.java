package com.captchajobs.core.model;

import com.captchajobs.core.client.CaptchaType;
import java.time.Instant;
import java.util.UUID;

/**
 * One solve in an operator's list, never its token or parameters.
 *
 * @param errorClass the class of {@code errorCode} in lower case ({@code permanent}, ...)
 * @param requeuedErrorCode the error the solve had when it was last requeued
 */
public record SolveRow(
    UUID id,
    String client,
    String businessKey,
    CaptchaType type,
    SolveStatus status,
    String errorCode,
    String errorClass,
    String batch,
    int priority,
    int submits,
    int polls,
    int requeues,
    String requeuedErrorCode,
    Instant createdAt,
    Instant updatedAt,
    Instant submittedAt,
    Instant solvedAt,
    String provider) {}
