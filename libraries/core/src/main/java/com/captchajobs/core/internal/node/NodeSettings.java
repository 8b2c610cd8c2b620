package com.captchajobs.core.internal.node;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.SolveSettings;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Everything a node is built from, checked by the public builder before it gets here.
 *
 * @param dataSource the fleet's database
 * @param schema the schema of every table
 * @param solve the engine's settings
 * @param client CaptchaAI, on a worker; null on a node that only enqueues
 * @param pingbacks the pingback URL and secret, or null
 * @param server this node's JobRunr server (its name is this node's)
 * @param webhooks the webhook deliveries of a worker
 * @param retention age and interval of the retention pass of a worker
 * @param dashboard the JobRunr dashboard, or null
 * @param events where the engine reports
 * @param clock this node's clock
 */
public record NodeSettings(
    DataSource dataSource,
    String schema,
    SolveSettings solve,
    CaptchaAiClient client,
    PingbackSettings pingbacks,
    OwnJobRunr.ServerSettings server,
    WebhookSettings webhooks,
    Retention retention,
    DashboardSettings dashboard,
    EngineListener events,
    Clock clock) {

  /** Whether this node runs a worker. */
  public boolean runsWorker() {
    return client != null;
  }

  public String nodeName() {
    return server.name();
  }

  /**
   * The retention pass of a worker, filled by {@code CaptchaJobs.Builder} through {@link Builder}
   * and refused here when it cannot work (the one place of these rules).
   *
   * @param age final solves older than this are deleted
   * @param interval how often the pass runs
   * @throws InvalidSettingException naming the builder method of a value that cannot work
   */
  public record Retention(Duration age, Duration interval) {

    public Retention {
      require(
          age != null && age.compareTo(Duration.ofHours(1)) >= 0,
          "{retention(Duration)} must be at least 1h");
      require(
          interval != null && interval.compareTo(Duration.ofSeconds(1)) >= 0,
          "{retentionInterval(Duration)} must be at least 1s");
    }

    /** The retention as the builder sets it value by value; {@link #build} checks it. */
    public static final class Builder {
      private Duration age;
      private Duration interval;

      public Builder age(Duration age) {
        this.age = age;
        return this;
      }

      public Builder interval(Duration interval) {
        this.interval = interval;
        return this;
      }

      /**
       * @throws InvalidSettingException naming the builder method of a value that cannot work
       */
      public Retention build() {
        return new Retention(age, interval);
      }
    }
  }
}
