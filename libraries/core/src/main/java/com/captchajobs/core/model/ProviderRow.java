package com.captchajobs.core.model;

import java.math.BigDecimal;

/**
 * One provider as operators see it (docs/providers.md): the primary, {@code captchaai}, and each of
 * {@code captchajobs.providers.*}, as the workers last registered them.
 *
 * @param name {@code captchaai} or the provider's configured name
 * @param role {@code PRIMARY}, {@code POOL} or {@code BACKUP}
 * @param threads its cap across the fleet
 * @param inFlight its gate slots held now
 * @param keyFingerprint its key's fingerprint (never the key): its breaker's row
 * @param breakerOpen whether its credential breaker is open
 * @param spentToday what it was charged this UTC day (0 for a provider billed by threads)
 * @param dailyBudget its budget per UTC day, the operator's if one was set; null: no cap
 */
public record ProviderRow(
    String name,
    String role,
    int threads,
    int inFlight,
    String keyFingerprint,
    boolean breakerOpen,
    BigDecimal spentToday,
    BigDecimal dailyBudget) {}
