package com.captchajobs.core.internal.node;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.ProviderSettings;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;

/**
 * Everything a node is built from: the public groups of settings ({@code core.settings}), each
 * checked when it was built, and what the public builder checked across them.
 *
 * @param schema the schema of every table
 * @param client CaptchaAI, on a worker; null on a node that only enqueues
 * @param pingbacks the pingback URL and secret, or null on a node given no secret
 * @param server this node's JobRunr server (its name is this node's)
 * @param webhooks the webhook deliveries of a worker
 * @param retention age and interval of the retention pass of a worker
 * @param dashboard the JobRunr dashboard, or null
 * @param providers the providers beside the primary, each name once; empty: the primary alone
 */
public record NodeSettings(
    DataSource dataSource,
    String schema,
    SolveSettings solve,
    CaptchaAiClient client,
    PingbackSettings pingbacks,
    WorkerSettings server,
    WebhookSettings webhooks,
    RetentionSettings retention,
    DashboardSettings dashboard,
    EngineListener events,
    Clock clock,
    List<ProviderSettings> providers) {

  public boolean runsWorker() {
    return client != null;
  }

  public String nodeName() {
    return server.name();
  }
}
