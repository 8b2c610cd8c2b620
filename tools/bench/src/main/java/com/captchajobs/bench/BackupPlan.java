package com.captchajobs.bench;

import com.captchajobs.simulator.KeyPlan;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A backup provider for a chaos run ({@code --backup-threads}, {@code --backup-price}, {@code
 * --backup-budget}): a second simulator named {@value #NAME}, its own key and seed, that the
 * workers know as {@code captchajobs.providers.backup.*} with {@code role=backup}. {@link #NONE} (0
 * threads) runs without one, as before.
 *
 * @param threads the backup's cap across the fleet ({@code captchajobs.providers.backup.threads});
 *     0 means no backup
 * @param pricesPer1000 price per 1,000 solves by captcha type, in the simulator's key plan and the
 *     workers' {@code price.<TYPE>}; empty means billed by threads
 * @param dailyBudget the workers' {@code daily-budget}; null means none given (no cap)
 */
public record BackupPlan(
    int threads, Map<String, BigDecimal> pricesPer1000, BigDecimal dailyBudget) {

  /** The provider name: the simulator's, the properties' and the metrics' tag. */
  static final String NAME = "backup";

  /** The backup's API key (32 characters, fingerprint {@code back}); workers get it by env only. */
  static final String API_KEY = "backupKEYbackupKEYbackupKEYback0";

  /** The environment variable the engine reads the backup's key from. */
  static final String KEY_ENV = "CAPTCHAJOBS_PROVIDERS_BACKUP_APIKEY";

  /** The properties' prefix. */
  static final String PREFIX = "captchajobs.providers." + NAME + ".";

  public static final BackupPlan NONE = new BackupPlan(0, Map.of(), null);

  public BackupPlan {
    if (threads < 0) {
      throw new IllegalArgumentException("--backup-threads must be at least 0, got " + threads);
    }
    pricesPer1000 = Map.copyOf(pricesPer1000);
    if (dailyBudget != null && dailyBudget.signum() < 0) {
      throw new IllegalArgumentException(
          "--backup-budget must be a number >= 0, got " + dailyBudget);
    }
  }

  public boolean configured() {
    return threads > 0;
  }

  /**
   * Plan threads on the backup simulator: its cap plus a reserve (as for the primary, max(2, B /
   * 5)), so that a fleet over the backup's cap shows as overshoot rather than as refusals.
   */
  int planThreads() {
    return threads + Math.max(2, threads / 5);
  }

  /** The simulator's key plan: threads, prices, no balance limit (the budget is the engine's). */
  KeyPlan keyPlan() {
    KeyPlan plan = KeyPlan.threads(planThreads());
    for (var e : new java.util.TreeMap<>(pricesPer1000).entrySet()) {
      plan = plan.price(e.getKey(), e.getValue());
    }
    return plan;
  }

  /**
   * The worker properties that configure it (the key travels in {@link #KEY_ENV} only): base URL,
   * threads, role, prices and budget.
   */
  Map<String, String> workerProps(String baseUrl) {
    Map<String, String> props = new LinkedHashMap<>();
    props.put(PREFIX + "base-url", baseUrl);
    props.put(PREFIX + "threads", String.valueOf(threads));
    props.put(PREFIX + "role", "backup");
    new java.util.TreeMap<>(pricesPer1000)
        .forEach((type, price) -> props.put(PREFIX + "price." + type, price.toPlainString()));
    if (dailyBudget != null) {
      props.put(PREFIX + "daily-budget", dailyBudget.toPlainString());
    }
    return props;
  }

  /** Its options as given on the command line; empty for {@link #NONE}. */
  String commandLine() {
    if (!configured()) {
      return "";
    }
    StringBuilder sb = new StringBuilder(" --backup-threads ").append(threads);
    if (!pricesPer1000.isEmpty()) {
      sb.append(" --backup-price ").append(prices(pricesPer1000));
    }
    if (dailyBudget != null) {
      sb.append(" --backup-budget ").append(dailyBudget.toPlainString());
    }
    return sb.toString();
  }

  /** {@code TURNSTILE:1.45,IMAGE:0.5}, types in name order. */
  static String prices(Map<String, BigDecimal> prices) {
    return String.join(
        ",",
        new java.util.TreeMap<>(prices)
            .entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue().toPlainString())
                .toList());
  }

  /**
   * {@code --backup-price TYPE:per1000,...}: each type one of the simulator's ({@link
   * KeyPlan#TYPES}), each price a decimal >= 0; a bad one is named.
   */
  static Map<String, BigDecimal> parsePrices(String value) {
    Map<String, BigDecimal> out = new LinkedHashMap<>();
    for (String part : value.split(",")) {
      String p = part.strip();
      int colon = p.indexOf(':');
      if (colon <= 0 || colon == p.length() - 1) {
        throw new IllegalArgumentException(
            "--backup-price needs TYPE:price per 1,000 solves, got '" + p + "'");
      }
      String type = p.substring(0, colon).strip();
      if (!KeyPlan.TYPES.contains(type)) {
        throw new IllegalArgumentException(
            "--backup-price type must be one of "
                + KeyPlan.TYPES.stream().sorted().toList()
                + ", got "
                + type);
      }
      BigDecimal price = decimal("--backup-price " + type, p.substring(colon + 1));
      if (out.put(type, price) != null) {
        throw new IllegalArgumentException("--backup-price gives " + type + " twice");
      }
    }
    return out;
  }

  /** A decimal >= 0, or an error naming {@code option}. */
  static BigDecimal decimal(String option, String value) {
    try {
      BigDecimal d = new BigDecimal(value.strip());
      if (d.signum() < 0) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          option + " must be a decimal number >= 0, got '" + value + "'", e);
    }
  }
}
