package com.captchajobs.simulator;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The money side of one key ({@link KeyPlan}): the price of each task by type, the balance, and the
 * spend per UTC day and type. Not thread-safe: the owning {@link Account}'s lock guards it.
 */
final class KeyBilling {
  /** What {@code getbalance} answers for a key without a balance of its own. */
  static final String UNLIMITED_BALANCE = "15.50";

  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  private final Map<String, BigDecimal> pricePerTask = new HashMap<>();
  private final BigDecimal startingBalance;
  private final OverCapMode overCapMode;
  private BigDecimal balance;
  private final Map<String, Map<String, Tally>> spendByDayAndType = new TreeMap<>();

  private static final class Tally {
    long tasks;
    BigDecimal amount = BigDecimal.ZERO;
  }

  KeyBilling(KeyPlan plan) {
    plan.pricesPer1000().forEach((type, per1000) -> pricePerTask.put(type, perTask(per1000)));
    this.startingBalance = plan.balance();
    this.balance = plan.balance();
    this.overCapMode = plan.overCapMode();
  }

  /** The price of one task: the price per 1,000 divided by 1,000, exactly. */
  static BigDecimal perTask(BigDecimal per1000) {
    return per1000.divide(THOUSAND);
  }

  /** This key's over-cap answer, or {@code fallback} (the simulator's) when it has none. */
  OverCapMode overCapMode(OverCapMode fallback) {
    return overCapMode == null ? fallback : overCapMode;
  }

  /** What one task of {@code type} costs; 0 for a type billed by threads. */
  BigDecimal priceOf(String type) {
    return pricePerTask.getOrDefault(type, BigDecimal.ZERO);
  }

  /**
   * Refuses a submit the balance cannot pay: {@code ERROR_ZERO_BALANCE} once the balance is 0, or
   * when the task's price is more than what is left. A key without a balance always pays.
   */
  void checkFunds(String type) {
    if (balance != null && (balance.signum() == 0 || balance.compareTo(priceOf(type)) < 0)) {
      throw new ApiError("ERROR_ZERO_BALANCE");
    }
  }

  /**
   * Charges an accepted task of {@code type} at {@code atMillis}: recorded under its UTC day and
   * type when the type has a price, and taken from the balance. Returns the price charged.
   */
  BigDecimal charge(String type, long atMillis) {
    BigDecimal price = pricePerTask.get(type);
    if (price == null) {
      return BigDecimal.ZERO;
    }
    Tally tally =
        spendByDayAndType
            .computeIfAbsent(dayOf(atMillis), d -> new TreeMap<>())
            .computeIfAbsent(type, t -> new Tally());
    tally.tasks++;
    tally.amount = tally.amount.add(price);
    if (balance != null) {
      balance = balance.subtract(price);
    }
    return price;
  }

  /** The spend rows of this key, by day then type. */
  List<SpendRecord> spend(String keyFingerprint) {
    List<SpendRecord> rows = new ArrayList<>();
    spendByDayAndType.forEach(
        (day, byType) ->
            byType.forEach(
                (type, t) ->
                    rows.add(new SpendRecord(keyFingerprint, day, type, t.tasks, t.amount))));
    return rows;
  }

  /** Everything this key spent on the UTC {@code day}, over all types. */
  BigDecimal spentOn(LocalDate day) {
    return spendByDayAndType.getOrDefault(day.toString(), Map.of()).values().stream()
        .map(t -> t.amount)
        .reduce(BigDecimal.ZERO, BigDecimal::add);
  }

  /** What {@code getbalance} answers. */
  String balanceText() {
    return balance == null ? UNLIMITED_BALANCE : balance.toPlainString();
  }

  void setBalance(BigDecimal amount) {
    if (amount == null || amount.signum() < 0) {
      throw new IllegalArgumentException("balance must be a number >= 0, got " + amount);
    }
    balance = amount;
  }

  /** Forgets the spend and restores the plan's balance. */
  void reset() {
    spendByDayAndType.clear();
    balance = startingBalance;
  }

  static String dayOf(long epochMillis) {
    return LocalDate.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC).toString();
  }
}
