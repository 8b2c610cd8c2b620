package com.captchajobs.core.internal.assembly;

import com.captchajobs.core.internal.egress.WebhookEgress;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.internal.node.Parts;
import com.captchajobs.core.internal.webhook.WebhookDeliveries;
import com.captchajobs.core.internal.webhook.WebhookJob;
import com.captchajobs.core.internal.webhook.WebhookSigner;
import com.captchajobs.core.settings.WebhookSettings;
import okhttp3.Dns;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A worker's webhooks: the delivery job, and its own JobRunr server when anything can sign. */
final class WebhookAssembly {

  private static final Logger log = LoggerFactory.getLogger(WebhookAssembly.class);

  private WebhookAssembly() {}

  static WebhookJob job(Shared s) {
    WebhookSettings webhooks = s.settings().webhooks();
    return new WebhookJob(
        s.repository(),
        http(webhooks),
        WebhookSigner.perClient(webhooks.secret(), webhooks.clientSecrets()),
        new WebhookEgress(webhooks.allowedHosts(), Dns.SYSTEM),
        webhooks.includeToken(),
        s.clock());
  }

  /** Starts the deliveries, woken by every final outcome; none without a secret to sign with. */
  static void start(Shared s, WebhookJob job, Parts parts) {
    NodeSettings settings = s.settings();
    if (!settings.webhooks().signs()) {
      log.info("No webhook secret set: solves with a callbackUrl get no webhook");
      return;
    }
    WebhookDeliveries deliveries =
        WebhookDeliveries.start(
            settings.dataSource(),
            s.schema(),
            settings.nodeName(),
            settings.server().pollInterval(),
            settings.server().shutdownWait(),
            settings.webhooks(),
            job,
            s.repository(),
            s.clock());
    parts.stopLater(deliveries);
    parts.stopLater(s.notifications().addListener(deliveries.trigger()));
    parts.show(deliveries);
  }

  private static OkHttpClient http(WebhookSettings webhooks) {
    return WebhookJob.httpClient(webhooks.timeout());
  }
}
