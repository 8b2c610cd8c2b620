package com.captchajobs.core.webhook;

import com.captchajobs.core.internal.egress.WebhookEgress;

/**
 * The entries of {@code captchajobs.webhook.allowed-hosts}: {@code host} is https on 443, {@code
 * host:port} https on that port, {@code http://host:port} plain http there. The builder checks them
 * as it builds; {@link #check} lets configuration fail earlier, on any node.
 */
public final class WebhookOrigins {

  private WebhookOrigins() {}

  /**
   * Refuses an entry that is not an origin.
   *
   * @throws IllegalArgumentException naming the key and the entry
   */
  public static void check(String entry) {
    WebhookEgress.Origin.parse(entry);
  }
}
