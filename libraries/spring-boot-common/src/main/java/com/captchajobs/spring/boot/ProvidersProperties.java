package com.captchajobs.spring.boot;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.ProviderSettings;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The providers beside the primary, under {@code captchajobs.providers.<name>.*} (see
 * docs/providers.md): the one binding of {@link ProviderSettings}, whose constants are the
 * defaults. The key comes best from the environment, {@code CAPTCHAJOBS_PROVIDERS_<NAME>_APIKEY}
 * (Spring's relaxed binding). Read on worker nodes, which route solves to them.
 */
@ConfigurationProperties(ProvidersProperties.PREFIX)
public class ProvidersProperties {

  /** The prefix these properties share with {@link CaptchaJobsProperties}. */
  public static final String PREFIX = "captchajobs";

  /** Each provider beside the primary ({@code captchaai.*}), by its name. None by default. */
  private Map<String, Provider> providers = new LinkedHashMap<>();

  public Map<String, Provider> getProviders() {
    return providers;
  }

  public void setProviders(Map<String, Provider> providers) {
    this.providers = providers;
  }

  /**
   * Each provider's settings; a provider without its base URL, key or threads is refused naming the
   * property, and so is any value its settings refuse.
   */
  List<ProviderSettings> toSettings() {
    List<ProviderSettings> all = new ArrayList<>();
    providers.forEach((name, p) -> all.add(p.toSettings(name)));
    return all;
  }

  /** The types each provider prices, by name (for the spend meters). */
  public Map<String, List<CaptchaType>> priced() {
    Map<String, List<CaptchaType>> priced = new LinkedHashMap<>();
    providers.forEach(
        (name, p) ->
            priced.put(
                name,
                p.price.keySet().stream()
                    .map(t -> Provider.type(t, PREFIX + ".providers." + name + "."))
                    .toList()));
    return priced;
  }

  /** One provider: {@code captchajobs.providers.<name>.*}. */
  public static class Provider {

    /** Where its in.php and res.php are (any API that speaks them). Required. */
    private String baseUrl;

    /**
     * Its API key, best from {@code CAPTCHAJOBS_PROVIDERS_<NAME>_APIKEY}; never logged, stored or
     * shown. Required.
     */
    private String apiKey;

    /**
     * Its threads: this provider's cap across the fleet, enforced exactly by the gate. Required.
     */
    private Integer threads;

    /**
     * {@code pool}: another key or plan, used whenever it has a free thread, the primary first;
     * {@code backup}: used only when the primary is down or a solve waited {@code overflow-after}.
     */
    private ProviderSettings.Role role = ProviderSettings.DEFAULT_ROLE;

    /** A solve that waited this long for a primary thread may go to this backup. */
    private Duration overflowAfter = ProviderSettings.DEFAULT_OVERFLOW_AFTER;

    /**
     * The price per 1,000 solves by type ({@code price.TURNSTILE=1.45}). A type absent is billed by
     * threads: no marginal cost.
     */
    private Map<String, BigDecimal> price = new LinkedHashMap<>();

    /** The most it may be charged per UTC day across the fleet; 0 or absent: no cap. */
    private BigDecimal dailyBudget = ProviderSettings.DEFAULT_DAILY_BUDGET;

    ProviderSettings toSettings(String name) {
      String prefix = PREFIX + ".providers." + name + ".";
      require(baseUrl, prefix + "base-url");
      require(apiKey, prefix + "api-key");
      require(threads, prefix + "threads");
      try {
        ProviderSettings.Builder b =
            ProviderSettings.builder()
                .name(name)
                .baseUrl(baseUrl)
                .apiKey(apiKey)
                .threads(threads)
                .role(role)
                .overflowAfter(overflowAfter)
                .dailyBudget(dailyBudget);
        price.forEach((type, p) -> b.price(type(type, prefix), p));
        return b.build();
      } catch (InvalidSettingException e) {
        IllegalStateException named =
            new IllegalStateException(
                e.message(
                    s ->
                        s.startsWith("ProviderSettings.")
                            ? prefix + PropertyNames.kebab(s.substring(s.indexOf('.') + 1))
                            : null));
        named.setStackTrace(e.getStackTrace());
        throw named;
      }
    }

    private static CaptchaType type(String type, String prefix) {
      try {
        return CaptchaType.valueOf(type.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(
            prefix
                + "price."
                + type
                + ": no such captcha type (one of "
                + List.of(CaptchaType.values())
                + ")");
      }
    }

    private static void require(Object value, String property) {
      if (value == null || value instanceof String s && s.isBlank()) {
        throw new MissingPropertyException(
            property, property + " is required for a provider beside the primary");
      }
    }

    public String getBaseUrl() {
      return baseUrl;
    }

    public void setBaseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
    }

    public String getApiKey() {
      return apiKey;
    }

    public void setApiKey(String apiKey) {
      this.apiKey = apiKey;
    }

    public Integer getThreads() {
      return threads;
    }

    public void setThreads(Integer threads) {
      this.threads = threads;
    }

    public ProviderSettings.Role getRole() {
      return role;
    }

    public void setRole(ProviderSettings.Role role) {
      this.role = role;
    }

    public Duration getOverflowAfter() {
      return overflowAfter;
    }

    public void setOverflowAfter(Duration overflowAfter) {
      this.overflowAfter = overflowAfter;
    }

    public Map<String, BigDecimal> getPrice() {
      return price;
    }

    public void setPrice(Map<String, BigDecimal> price) {
      this.price = price;
    }

    public BigDecimal getDailyBudget() {
      return dailyBudget;
    }

    public void setDailyBudget(BigDecimal dailyBudget) {
      this.dailyBudget = dailyBudget;
    }

    /** Never the key. */
    @Override
    public String toString() {
      return "Provider{baseUrl=" + baseUrl + ", threads=" + threads + ", role=" + role + "}";
    }
  }
}
