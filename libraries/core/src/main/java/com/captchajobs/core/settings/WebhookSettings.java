package com.captchajobs.core.settings;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The webhooks a worker delivers to a solve's {@code callbackUrl}: their secrets, the non-public
 * origins they may reach, their body, and their own JobRunr server's threads, retries and backoff.
 * Its defaults are the {@code DEFAULT_} constants here; the Spring Boot starter binds it from
 * {@code captchajobs.webhook.*} (and the clients' secrets from {@code
 * captchajobs.api.clients.<name>.webhook-secret}). Its {@link Builder} methods describe the
 * components.
 *
 * @throws InvalidSettingException naming the builder method of a value that cannot work
 */
public record WebhookSettings(
    String secret,
    Map<String, String> clientSecrets,
    Set<String> allowedHosts,
    boolean includeToken,
    Duration timeout,
    int retries,
    int threads,
    int threadsPerClient,
    Duration backoff,
    Duration maxBackoff) {

  public static final boolean DEFAULT_INCLUDE_TOKEN = false;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_RETRIES = 8;
  public static final int DEFAULT_THREADS = 4;
  public static final Duration DEFAULT_BACKOFF = Duration.ofSeconds(10);
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofMinutes(10);

  /** The shortest node secret accepted. */
  public static final int MIN_SECRET_CHARS = 16;

  public WebhookSettings {
    clientSecrets = Map.copyOf(clientSecrets);
    allowedHosts = Set.copyOf(allowedHosts);
    require(
        secret == null || secret.length() >= MIN_SECRET_CHARS,
        "{WebhookSettings.secret(String)} must be at least " + MIN_SECRET_CHARS + " characters");
    require(
        timeout != null && !timeout.isNegative() && !timeout.isZero(),
        "{WebhookSettings.timeout(Duration)} must be positive");
    require(retries >= 0, "{WebhookSettings.retries(int)} must not be negative");
    require(threads >= 1, "{WebhookSettings.threads(int)} must be at least 1");
    require(
        backoff != null && backoff.compareTo(Duration.ofSeconds(1)) >= 0,
        "{WebhookSettings.backoff(Duration)} must be at least 1s");
    require(
        maxBackoff != null && maxBackoff.compareTo(backoff) >= 0,
        "{WebhookSettings.maxBackoff(Duration)} must not be shorter than"
            + " {WebhookSettings.backoff(Duration)}");
    require(
        threadsPerClient >= 1 && threadsPerClient <= threads,
        "{WebhookSettings.threadsPerClient(Integer)} must be between 1 and"
            + " {WebhookSettings.threads(int)}");
  }

  /**
   * {@code (threads - 1) / 2}, at least 1: the default share of one client, so that no two clients
   * can hold every thread.
   */
  public static int defaultThreadsPerClient(int threads) {
    return Math.max(1, (threads - 1) / 2);
  }

  /** Every value at its default: no secret, so no webhook is delivered. */
  public static WebhookSettings defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these settings. */
  public Builder toBuilder() {
    Builder b =
        new Builder()
            .secret(secret)
            .allowedHosts(allowedHosts)
            .includeToken(includeToken)
            .timeout(timeout)
            .retries(retries)
            .threads(threads)
            .threadsPerClient(threadsPerClient)
            .backoff(backoff)
            .maxBackoff(maxBackoff);
    clientSecrets.forEach(b::clientSecret);
    return b;
  }

  /** Whether any webhook can be signed, so delivered. */
  public boolean signs() {
    return secret != null || !clientSecrets.isEmpty();
  }

  /** Never a secret: the clients with one are named, their secrets are not. */
  @Override
  public String toString() {
    return ("WebhookSettings{secret=%s, clientsWithSecrets=%s, allowedHosts=%s, includeToken=%s,"
            + " timeout=%s, retries=%s, threads=%s, threadsPerClient=%s, backoff=%s, maxBackoff=%s}")
        .formatted(
            secret == null ? "none" : "***",
            clientSecrets.keySet(),
            allowedHosts,
            includeToken,
            timeout,
            retries,
            threads,
            threadsPerClient,
            backoff,
            maxBackoff);
  }

  /** Every value of a {@link WebhookSettings}, each starting at its default. */
  public static final class Builder {

    private String secret = null;
    private final Map<String, String> clientSecrets = new LinkedHashMap<>();
    private final Set<String> allowedHosts = new LinkedHashSet<>();
    private boolean includeToken = DEFAULT_INCLUDE_TOKEN;
    private Duration timeout = DEFAULT_TIMEOUT;
    private int retries = DEFAULT_RETRIES;
    private int threads = DEFAULT_THREADS;
    private Integer threadsPerClient = null; // defaultThreadsPerClient(threads)
    private Duration backoff = DEFAULT_BACKOFF;
    private Duration maxBackoff = DEFAULT_MAX_BACKOFF;

    private Builder() {}

    /** Node secret of the signatures, at least 16 characters; unset: clients' own secrets only. */
    public Builder secret(String secret) {
      this.secret = secret;
      return this;
    }

    /** The secret of one API client's webhooks; the others use keys derived from the node's. */
    public Builder clientSecret(String client, String secret) {
      clientSecrets.put(client, secret);
      return this;
    }

    /** Adds non-public origins it may reach: host (https:443), host:port, http://host:port. */
    public Builder allowedHosts(Collection<String> hosts) {
      allowedHosts.addAll(hosts);
      return this;
    }

    /** Whether the body carries the token (it is then not claimed); false. */
    public Builder includeToken(boolean includeToken) {
      this.includeToken = includeToken;
      return this;
    }

    /** Connect and read timeout of one delivery; 10 s. */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Retries of a delivery that got no 2xx answer; 8. */
    public Builder retries(int retries) {
      this.retries = retries;
      return this;
    }

    /** Deliveries in flight on this node, on their own JobRunr server; 4. */
    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    /** Deliveries of one client in flight on this node; null: {@link #defaultThreadsPerClient}. */
    public Builder threadsPerClient(Integer threadsPerClient) {
      this.threadsPerClient = threadsPerClient;
      return this;
    }

    /** Wait before a delivery's first retry, doubled for each further one, at least 1 s; 10 s. */
    public Builder backoff(Duration backoff) {
      this.backoff = backoff;
      return this;
    }

    /** Upper bound of one wait between delivery retries; 10 min. */
    public Builder maxBackoff(Duration maxBackoff) {
      this.maxBackoff = maxBackoff;
      return this;
    }

    /**
     * @throws InvalidSettingException naming the builder method of a value that cannot work
     */
    public WebhookSettings build() {
      return new WebhookSettings(
          secret,
          clientSecrets,
          allowedHosts,
          includeToken,
          timeout,
          retries,
          threads,
          threadsPerClient != null ? threadsPerClient : defaultThreadsPerClient(threads),
          backoff,
          maxBackoff);
    }
  }
}
