package com.captchajobs.core.settings;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import com.captchajobs.core.client.CaptchaType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A provider beside the primary ({@code captchaai.*}, named {@value #PRIMARY}): another key or plan
 * of CaptchaAI, or any service that speaks in.php/res.php, behind the same fleet gate (see
 * docs/providers.md). Its defaults are the {@code DEFAULT_} constants here; the Spring Boot starter
 * binds one from each {@code captchajobs.providers.<name>.*}. Its {@link Builder} methods describe
 * the components.
 *
 * @throws InvalidSettingException naming the builder method of a value that cannot work
 */
public record ProviderSettings(
    String name,
    String baseUrl,
    String apiKey,
    int threads,
    Role role,
    Duration overflowAfter,
    Map<CaptchaType, BigDecimal> prices,
    BigDecimal dailyBudget) {

  /** The primary's name: the {@code captchaai.*} key. */
  public static final String PRIMARY = "captchaai";

  public static final Role DEFAULT_ROLE = Role.BACKUP;
  public static final Duration DEFAULT_OVERFLOW_AFTER = Duration.ofSeconds(30);

  /** No cap on the daily spend. */
  public static final BigDecimal DEFAULT_DAILY_BUDGET = null;

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");

  /** What a provider is for. */
  public enum Role {
    /** Another key or plan: used whenever it has a free thread, the primary first. */
    POOL,
    /** Used only when the primary is down, or a solve waited {@code overflowAfter}. */
    BACKUP
  }

  public ProviderSettings {
    require(
        name != null && NAME.matcher(name).matches() && !PRIMARY.equals(name),
        "{ProviderSettings.name(String)} must be 1 to 32 lower case letters, digits or dashes,"
            + " starting with a letter, and not '"
            + PRIMARY
            + "' (the primary's name)");
    require(
        baseUrl != null && (baseUrl.startsWith("http://") || baseUrl.startsWith("https://")),
        "{ProviderSettings.baseUrl(String)} is required, an absolute http(s) URL (provider "
            + name
            + ")");
    require(
        apiKey != null && !apiKey.isBlank(),
        "{ProviderSettings.apiKey(String)} is required (provider " + name + ")");
    require(
        threads > 0, "{ProviderSettings.threads(int)} must be at least 1 (provider " + name + ")");
    require(role != null, "{ProviderSettings.role(Role)} is required (provider " + name + ")");
    require(
        overflowAfter != null && !overflowAfter.isNegative(),
        "{ProviderSettings.overflowAfter(Duration)} must be zero or more (provider " + name + ")");
    if (prices != null) {
      for (BigDecimal p : prices.values()) {
        require(
            p != null && p.signum() >= 0,
            "{ProviderSettings.price(CaptchaType, BigDecimal)} must be zero or more (provider "
                + name
                + ")");
      }
    }
    prices = prices == null ? Map.of() : Map.copyOf(prices);
    require(
        dailyBudget == null || dailyBudget.signum() >= 0,
        "{ProviderSettings.dailyBudget(BigDecimal)} must be zero or more (provider " + name + ")");
    if (dailyBudget != null && dailyBudget.signum() == 0) {
      dailyBudget = null; // 0 means no cap
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these settings. */
  public Builder toBuilder() {
    Builder b =
        new Builder()
            .name(name)
            .baseUrl(baseUrl)
            .apiKey(apiKey)
            .threads(threads)
            .role(role)
            .overflowAfter(overflowAfter)
            .dailyBudget(dailyBudget);
    prices.forEach(b::price);
    return b;
  }

  /** The price of one solve of {@code type}, or empty when billed by threads. */
  public Optional<BigDecimal> priceOfOne(CaptchaType type) {
    return Optional.ofNullable(prices.get(type)).map(p -> p.movePointLeft(3));
  }

  /** Names the key without revealing it: the first 16 hex of SHA-256(key), as the client does. */
  public String keyFingerprint() {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(apiKey.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** Never the key: its fingerprint. */
  @Override
  public String toString() {
    return ("ProviderSettings{name=%s, baseUrl=%s, key=%s, threads=%s, role=%s, overflowAfter=%s,"
            + " prices=%s, dailyBudget=%s}")
        .formatted(
            name,
            baseUrl,
            keyFingerprint(),
            threads,
            role,
            overflowAfter,
            prices,
            dailyBudget == null ? "none" : dailyBudget);
  }

  /** Every value starts at its default; name, base URL, key and threads are required. */
  public static final class Builder {
    private String name;
    private String baseUrl;
    private String apiKey;
    private int threads;
    private Role role = DEFAULT_ROLE;
    private Duration overflowAfter = DEFAULT_OVERFLOW_AFTER;
    private final Map<CaptchaType, BigDecimal> prices = new EnumMap<>(CaptchaType.class);
    private BigDecimal dailyBudget = DEFAULT_DAILY_BUDGET;

    private Builder() {}

    /** Required: how the fleet names it (property key, metrics tag); never {@value #PRIMARY}. */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** Required: where its in.php and res.php are. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** Required: its key; never logged, stored or shown. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** Required: its threads, the cap across the fleet, enforced exactly by the gate. */
    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    /** Default {@link #DEFAULT_ROLE}: a backup. */
    public Builder role(Role role) {
      this.role = role;
      return this;
    }

    /** A backup takes a solve that waited this long for a thread; default 30 s. */
    public Builder overflowAfter(Duration overflowAfter) {
      this.overflowAfter = overflowAfter;
      return this;
    }

    /** The price per 1,000 solves of {@code type}; default none (billed by threads). */
    public Builder price(CaptchaType type, BigDecimal perThousand) {
      prices.put(Objects.requireNonNull(type, "type"), perThousand);
      return this;
    }

    /** The most it may be charged per UTC day, fleet-wide; default none (null or 0: no cap). */
    public Builder dailyBudget(BigDecimal dailyBudget) {
      this.dailyBudget = dailyBudget;
      return this;
    }

    public ProviderSettings build() {
      return new ProviderSettings(
          name, baseUrl, apiKey, threads, role, overflowAfter, prices, dailyBudget);
    }
  }
}
