package com.captchajobs.core.model;

/**
 * The fleet gate's figures at one instant.
 *
 * @param capacity the cap, {@code captchaai.threads}
 * @param inFlight slots held now (a lapsed lease does not count)
 * @param waiting solves waiting for a slot
 */
public record Gate(int capacity, int inFlight, int waiting) {}
