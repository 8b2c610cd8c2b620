package com.captchajobs.spring.boot;

import com.captchajobs.core.CaptchaJobs;
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
 * Webhooks to a solve's {@code callbackUrl}, under {@code captchajobs.webhook.*}. Read on worker
 * nodes, which deliver them.
 */
@ConfigurationProperties("captchajobs.webhook")
public class WebhookProperties {

  /**
   * Shared secret of the HMAC-SHA256 signature (at least 16 characters); unset: nothing is sent.
   */
  private String secret;

  /**
   * Whether the token is part of the webhook body (it is then not claimed: claim still works once).
   */
  private boolean includeToken = false;

  /** Connect and read timeout of one delivery. */
  private Duration timeout = CaptchaJobs.Builder.DEFAULT_WEBHOOK_TIMEOUT;

  /** Retries of a delivery that got no 2xx answer, with exponential backoff. */
  private int retries = CaptchaJobs.Builder.DEFAULT_WEBHOOK_RETRIES;

  /**
   * Hosts (names or literal addresses) a webhook may reach although they resolve to a loopback,
   * private, link-local, unique-local or other non-public address, and over plain http. Every other
   * callback needs https and a public address, checked when each delivery is made.
   */
  private List<String> allowedHosts = new ArrayList<>();

  /** Rejects bad values naming the key. */
  public void validate() {
    if (secret != null && !secret.isEmpty() && secret.length() < 16) {
      throw new IllegalStateException("captchajobs.webhook.secret must be at least 16 characters");
    }
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalStateException("captchajobs.webhook.timeout must be positive");
    }
    if (retries < 0) {
      throw new IllegalStateException("captchajobs.webhook.retries must not be negative");
    }
  }

  public boolean hasSecret() {
    return secret != null && !secret.isEmpty();
  }

  @Override
  public String toString() {
    return "WebhookProperties[secret="
        + (hasSecret() ? "***" : "unset")
        + ", includeToken="
        + includeToken
        + ", timeout="
        + timeout
        + ", retries="
        + retries
        + "]";
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
                        if (c.getWebhookSecret().length() < 16) {
                          throw new IllegalStateException(
                              "captchajobs.api.clients."
                                  + name
                                  + ".webhook-secret must be at least 16 characters");
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
}
