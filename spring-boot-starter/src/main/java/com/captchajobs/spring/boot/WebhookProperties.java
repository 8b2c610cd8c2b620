package com.captchajobs.spring.boot;

import com.captchajobs.core.CaptchaJobs;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

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
