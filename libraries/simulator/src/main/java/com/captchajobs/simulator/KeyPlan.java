package com.captchajobs.simulator;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What one API key bought: its threads, its prices per 1,000 solves by captcha type, its balance
 * and what {@code in.php} answers when its threads are full. Immutable; each {@code with} method
 * returns a copy.
 *
 * <pre>{@code
 * KeyPlan.threads(10)                      // default: billed by threads, no prices
 *     .price("TURNSTILE", "1.45")          // per 1,000 solves; a type without price costs 0
 *     .balance("5.00")                     // default: none (unlimited, getbalance says 15.50)
 *     .overCapMode(OverCapMode.NO_SLOT_AVAILABLE); // default: the simulator's overCapMode
 * }</pre>
 *
 * <p>Types are the engine's captcha type names ({@link #TYPES}): a {@code userrecaptcha} task is
 * {@code RECAPTCHA_V2}, with {@code version=v3} {@code RECAPTCHA_V3}, with {@code enterprise=1}
 * {@code RECAPTCHA_ENTERPRISE}; {@code base64} and {@code post} are {@code IMAGE}; a {@code
 * geetest} task with {@code version=4} is {@code GEETEST_V4}.
 */
public final class KeyPlan {
  /** The captcha types a price can be given for. */
  public static final Set<String> TYPES =
      Set.of(
          "RECAPTCHA_V2",
          "RECAPTCHA_V3",
          "RECAPTCHA_ENTERPRISE",
          "TURNSTILE",
          "IMAGE",
          "CLOUDFLARE_CHALLENGE",
          "GEETEST",
          "GEETEST_V4");

  private final int threads;
  private final Map<String, BigDecimal> pricesPer1000;
  private final BigDecimal balance;
  private final OverCapMode overCapMode;

  private KeyPlan(
      int threads,
      Map<String, BigDecimal> pricesPer1000,
      BigDecimal balance,
      OverCapMode overCapMode) {
    this.threads = threads;
    this.pricesPer1000 = Collections.unmodifiableMap(pricesPer1000);
    this.balance = balance;
    this.overCapMode = overCapMode;
  }

  /** A plan of {@code threads} threads, billed by threads (no prices), no balance limit. */
  public static KeyPlan threads(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("KeyPlan threads must be >= 0, got " + threads);
    }
    return new KeyPlan(threads, new LinkedHashMap<>(), null, null);
  }

  /**
   * Each accepted task of {@code type} costs {@code per1000} / 1,000 (charged at acceptance, as a
   * per-solve service debits on upload; unsolvable tasks are not refunded).
   */
  public KeyPlan price(String type, BigDecimal per1000) {
    if (type == null || !TYPES.contains(type)) {
      throw new IllegalArgumentException(
          "KeyPlan price type must be one of " + sorted(TYPES) + ", got " + type);
    }
    if (per1000 == null || per1000.signum() < 0) {
      throw new IllegalArgumentException(
          "KeyPlan price." + type + " must be a number >= 0, got " + per1000);
    }
    Map<String, BigDecimal> prices = new LinkedHashMap<>(pricesPer1000);
    prices.put(type, per1000);
    return new KeyPlan(threads, prices, balance, overCapMode);
  }

  /** {@link #price(String, BigDecimal)} from a decimal string such as {@code "1.45"}. */
  public KeyPlan price(String type, String per1000) {
    return price(type, decimal("price." + type, per1000));
  }

  /**
   * The money on the account. Each charge takes its price from it; a submit whose price is more
   * than what is left, or any submit once it is exactly 0, is refused with {@code
   * ERROR_ZERO_BALANCE}. {@code getbalance} answers it.
   */
  public KeyPlan balance(BigDecimal amount) {
    if (amount == null || amount.signum() < 0) {
      throw new IllegalArgumentException("KeyPlan balance must be a number >= 0, got " + amount);
    }
    return new KeyPlan(threads, new LinkedHashMap<>(pricesPer1000), amount, overCapMode);
  }

  /** {@link #balance(BigDecimal)} from a decimal string such as {@code "5.00"}. */
  public KeyPlan balance(String amount) {
    return balance(decimal("balance", amount));
  }

  /** What in.php answers when this key's threads are busy, instead of the simulator's mode. */
  public KeyPlan overCapMode(OverCapMode mode) {
    return new KeyPlan(
        threads,
        new LinkedHashMap<>(pricesPer1000),
        balance,
        Objects.requireNonNull(mode, "overCapMode"));
  }

  public int threads() {
    return threads;
  }

  /** Prices per 1,000 solves by type; a type not listed costs nothing (billed by threads). */
  public Map<String, BigDecimal> pricesPer1000() {
    return pricesPer1000;
  }

  /** The starting balance, or null when unlimited. */
  public BigDecimal balance() {
    return balance;
  }

  /** This key's own over-cap answer, or null for the simulator's. */
  public OverCapMode overCapMode() {
    return overCapMode;
  }

  @Override
  public String toString() {
    return "KeyPlan[threads="
        + threads
        + ", pricesPer1000="
        + pricesPer1000
        + ", balance="
        + balance
        + ", overCapMode="
        + overCapMode
        + "]";
  }

  private static BigDecimal decimal(String name, String value) {
    try {
      return new BigDecimal(Objects.requireNonNull(value, name).strip());
    } catch (NumberFormatException | NullPointerException e) {
      throw new IllegalArgumentException(
          "KeyPlan " + name + " must be a decimal number, got " + value);
    }
  }

  private static String sorted(Set<String> set) {
    return set.stream().sorted().toList().toString();
  }
}
