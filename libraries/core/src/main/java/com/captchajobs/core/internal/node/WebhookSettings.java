package com.captchajobs.core.internal.node;

import com.captchajobs.core.internal.webhook.WebhookDeliveries;
import java.util.Map;
import java.util.Set;

/**
 * The webhooks a worker delivers.
 *
 * @param secret the node secret, or null
 * @param clientSecrets the own secrets of API clients, by name
 * @param allowedHosts origins a webhook may reach at a non-public address
 * @param includeToken whether the body carries the token
 * @param deliveries threads, retries, backoff and timeout of the deliveries
 */
public record WebhookSettings(
    String secret,
    Map<String, String> clientSecrets,
    Set<String> allowedHosts,
    boolean includeToken,
    WebhookDeliveries.Settings deliveries) {

  public WebhookSettings {
    clientSecrets = Map.copyOf(clientSecrets);
    allowedHosts = Set.copyOf(allowedHosts);
  }

  /** Never a secret: the clients with one are named, their secrets are not. */
  @Override
  public String toString() {
    return "WebhookSettings{secret="
        + (secret == null ? "none" : "***")
        + ", clientsWithSecrets="
        + clientSecrets.keySet()
        + ", allowedHosts="
        + allowedHosts
        + ", includeToken="
        + includeToken
        + "}";
  }

  /** Whether any webhook can be signed, so delivered. */
  public boolean signs() {
    return secret != null || !clientSecrets.isEmpty();
  }
}
