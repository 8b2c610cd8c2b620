package com.captchajobs.simulator;

import java.math.BigDecimal;

/**
 * What one key spent on one captcha type on one UTC day: the tasks accepted and charged, and their
 * sum. Only priced types show ({@link KeyPlan#price}); a key billed by threads spends nothing and
 * has no rows. The key itself is never reported, only its fingerprint.
 *
 * @param keyFingerprint the key's first four characters, as in the request log
 * @param day the UTC day of acceptance on the simulator's clock, {@code yyyy-MM-dd}
 * @param type the captcha type ({@link KeyPlan#TYPES})
 * @param tasks how many accepted tasks were charged
 * @param amount their prices added up, each price per 1,000 solves divided by 1,000
 */
public record SpendRecord(
    String keyFingerprint, String day, String type, long tasks, BigDecimal amount) {}
