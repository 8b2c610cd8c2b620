package com.captchajobs.spring.boot;

import com.captchajobs.core.settings.WebhookSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Webhooks to a solve's {@code callbackUrl}, under {@code captchajobs.webhook.*}: the one binding
 * of {@link WebhookSettings}, whose constants are the defaults and whose builder methods name the
 * fields. Read on worker nodes, which deliver them.
 */
@ConfigurationProperties(WebhookProperties.PREFIX)
public class WebhookProperties {

  /** The prefix of these properties. */
  public static final String PREFIX = "captchajobs.webhook";

  /**
   * Node secret of the HMAC-SHA256 signatures (at least 16 characters). It signs the Java API's
   * webhooks; every API client without a {@code webhook-secret} of its own signs with a key derived
   * from it and the client's name. Unset: only clients with their own secret get webhooks.
   */
  private String secret;

  /**
   * Whether the token is part of the webhook body (it is then not claimed: claim still works once).
   */
  private boolean includeToken = WebhookSettings.DEFAULT_INCLUDE_TOKEN;

  /** Connect and read timeout of one delivery. */
  private Duration timeout = WebhookSettings.DEFAULT_TIMEOUT;

  /**
   * Retries of a delivery that got no 2xx answer (a refused callback URL is not retried). Apart
   * from the solve retries: a delivery makes at most {@code retries + 1} attempts.
   */
  private int retries = WebhookSettings.DEFAULT_RETRIES;

  /**
   * Deliveries in flight on one worker node: the threads of the deliveries' own JobRunr server. A
   * receiver that answers slowly or never holds one of these, never a thread that submits or polls.
   */
  private int threads = WebhookSettings.DEFAULT_THREADS;

  /**
   * Wait before the first retry of a delivery (whole seconds, at least 1s), doubled for each
   * further retry up to {@code max-backoff}, with ±25 % jitter. Apart from the solve retries'
   * backoff.
   */
  private Duration backoff = WebhookSettings.DEFAULT_BACKOFF;

  /** Upper bound of one wait between delivery retries. */
  private Duration maxBackoff = WebhookSettings.DEFAULT_MAX_BACKOFF;

  /**
   * Deliveries of one API client in flight on one worker node, at most; the other threads stay free
   * for the other clients, so receivers of one client that hang never hold them all. Unset: {@code
   * (threads - 1) / 2}, at least 1, so that no two clients hold them all.
   */
  private Integer threadsPerClient;

  /**
   * Origins a webhook may reach although they resolve to a loopback, private, link-local,
   * unique-local or other non-public address: {@code host} is https on port 443, {@code host:port}
   * https on that port, {@code http://host:port} plain http on that port. Every other callback
   * needs https and a public address, checked when each delivery is made.
   */
  private List<String> allowedHosts = new ArrayList<>();

  /**
   * The webhooks, every one of their settings mapped here and nowhere else.
   *
   * @param clientSecrets the own secrets of API clients ({@link #clientSecrets}), on a worker
   * @throws IllegalStateException naming the key of a value that cannot work
   */
  public WebhookSettings toSettings(Map<String, String> clientSecrets) {
    return PropertyNames.build(
        () -> {
          WebhookSettings.Builder b =
              WebhookSettings.builder()
                  .secret(hasSecret() ? secret : null)
                  .includeToken(includeToken)
                  .timeout(timeout)
                  .retries(retries)
                  .threads(threads)
                  .threadsPerClient(threadsPerClient)
                  .backoff(backoff)
                  .maxBackoff(maxBackoff)
                  .allowedHosts(allowedHosts == null ? List.of() : allowedHosts);
          clientSecrets.forEach(b::clientSecret);
          return b.build();
        });
  }

  /** Rejects a value that cannot work, naming the key. */
  public void validate() {
    toSettings(Map.of());
  }

  public boolean hasSecret() {
    return secret != null && !secret.isEmpty();
  }

  /**
   * The text of the settings these properties make (never a secret), or what is wrong with them.
   */
  @Override
  public String toString() {
    try {
      return "WebhookProperties[" + toSettings(Map.of()) + "]";
    } catch (RuntimeException e) {
      return "WebhookProperties[invalid: " + e.getMessage() + "]";
    }
  }

  public Integer getThreadsPerClient() {
    return threadsPerClient;
  }

  public void setThreadsPerClient(Integer threadsPerClient) {
    this.threadsPerClient = threadsPerClient;
  }

  public List<String> getAllowedHosts() {
    return allowedHosts;
  }

  public void setAllowedHosts(List<String> allowedHosts) {
    this.allowedHosts = allowedHosts;
  }

  /**
   * The webhook secrets of named API clients, {@code captchajobs.api.clients.<name>.webhook-secret}
   * (the clients themselves are configured on the app node; worker nodes need only these).
   */
  public static Map<String, String> clientSecrets(Environment environment) {
    Map<String, String> secrets = new LinkedHashMap<>();
    Binder.get(environment)
        .bind("captchajobs.api.clients", Bindable.mapOf(String.class, ClientWebhook.class))
        .ifBound(
            clients ->
                clients.forEach(
                    (name, c) -> {
                      if (c.getWebhookSecret() != null && !c.getWebhookSecret().isEmpty()) {
                        if (c.getWebhookSecret().length() < WebhookSettings.MIN_SECRET_CHARS) {
                          throw new IllegalStateException(
                              "captchajobs.api.clients."
                                  + name
                                  + ".webhook-secret must be at least "
                                  + WebhookSettings.MIN_SECRET_CHARS
                                  + " characters");
                        }
                        secrets.put(name, c.getWebhookSecret());
                      }
                    }));
    return secrets;
  }

  /** The one key of a client the worker reads. */
  public static class ClientWebhook {
    private String webhookSecret;

    public String getWebhookSecret() {
      return webhookSecret;
    }

    public void setWebhookSecret(String webhookSecret) {
      this.webhookSecret = webhookSecret;
    }
  }

  public String getSecret() {
    return secret;
  }

  public void setSecret(String secret) {
    this.secret = secret;
  }

  public boolean isIncludeToken() {
    return includeToken;
  }

  public void setIncludeToken(boolean includeToken) {
    this.includeToken = includeToken;
  }

  public Duration getTimeout() {
    return timeout;
  }

  public void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  public int getRetries() {
    return retries;
  }

  public void setRetries(int retries) {
    this.retries = retries;
  }

  public int getThreads() {
    return threads;
  }

  public void setThreads(int threads) {
    this.threads = threads;
  }

  public Duration getBackoff() {
    return backoff;
  }

  public void setBackoff(Duration backoff) {
    this.backoff = backoff;
  }

  public Duration getMaxBackoff() {
    return maxBackoff;
  }

  public void setMaxBackoff(Duration maxBackoff) {
    this.maxBackoff = maxBackoff;
  }
}
