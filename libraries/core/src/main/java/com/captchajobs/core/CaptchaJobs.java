package com.captchajobs.core;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.assembly.Engine;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.node.EngineParts;
import com.captchajobs.core.internal.push.Pingbacks;
import com.captchajobs.core.pingback.PingbackReceiver;
import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.ProviderSettings;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.jobrunr.storage.StorageProvider;

/**
 * CaptchaJobs in plain Java: give it a PostgreSQL {@link DataSource} and get {@link Solves}. With a
 * CaptchaAI key it also runs a worker on this node: the submit and poll jobs on CaptchaJobs' own
 * JobRunr server, whose tables live in their own schema beside anything else in the database.
 *
 * <pre>{@code
 * try (CaptchaJobs captchaJobs = CaptchaJobs.builder()
 *     .dataSource(dataSource)
 *     .apiKey(System.getenv("CAPTCHAAI_API_KEY")) // omit on nodes that only enqueue
 *     .settings(SolveSettings.builder().threads(5).build()) // the plan's threads, for the fleet
 *     .build()) {
 *   Solves solves = captchaJobs.solves();
 *   UUID id = solves.enqueue(SolveRequest.turnstile("signup-42", sitekey, pageUrl));
 *   ClaimedToken token = solves.await(id, Duration.ofMinutes(3)).thenApply(s -> solves.claim(id)).join();
 * }
 * }</pre>
 *
 * {@link Builder#build} migrates the schema and starts the node's parts; {@link #close} stops them.
 */
public final class CaptchaJobs implements AutoCloseable {

  private final Engine engine;
  private final Solves solves;
  private final Operations operations;

  CaptchaJobs(Engine engine, Solves solves) {
    this.engine = engine;
    this.solves = solves;
    this.operations = Operations.of(engine, this::jobCounts);
    EngineParts.register(this, engine.parts());
  }

  public static Builder builder() {
    return new NodeBuilder();
  }

  /** The Java API: enqueue, status, await, claim, solveNow. */
  public Solves solves() {
    return solves;
  }

  /** What operators read and do: solves, batches, requeues, the gate, breakers, this worker. */
  public Operations operations() {
    return operations;
  }

  /** Where an answer the provider pushed is handed over; on a node given a pingback secret. */
  public Optional<PingbackReceiver> pingbacks() {
    return engine.parts().find(Pingbacks.class).map(PingbackReceiver.class::cast);
  }

  /** Whether this node runs a worker (it was given an API key). */
  public boolean runsWorker() {
    return engine.worker() != null;
  }

  /** The schema that holds every CaptchaJobs table. */
  public String schema() {
    return engine.schema().name();
  }

  /** CaptchaJobs' own JobRunr jobs by state, never a host's; one query a call (cache it). */
  public Map<String, Long> jobCounts() {
    return engine.parts().find(StorageProvider.class).map(OwnJobRunr::jobCounts).orElse(Map.of());
  }

  /** Stops the dashboard, the server, the listener and the repair pass, in reverse start order. */
  @Override
  public void close() {
    engine.parts().close();
  }

  /**
   * Every setting of a node; only the data source is required. The node's settings come in groups
   * beside {@link SolveSettings} ({@link WorkerSettings}, {@link WebhookSettings}, {@link
   * RetentionSettings}, {@link PingbackSettings}, {@link DashboardSettings}), each with its
   * defaults, its rules and a builder; the {@link NodeShortcuts} set one value of a group each (the
   * last call wins; a group replaces what shortcuts of it set before). {@link #build} refuses a
   * setting that cannot work with an {@link InvalidSettingException} naming the method and group.
   */
  public interface Builder extends NodeShortcuts<Builder> {

    String DEFAULT_SCHEMA = "captchajobs";
    Duration DEFAULT_REPORT_WINDOW = Duration.ofMinutes(10);

    /** The PostgreSQL database shared by every node of the fleet. Required. */
    Builder dataSource(DataSource dataSource);

    /** Schema of every table, JobRunr's included, created when missing; "captchajobs". */
    Builder schema(String schema);

    /** CaptchaAI API key. Set, this node runs a worker; unset (default), it only enqueues. */
    Builder apiKey(String apiKey);

    /** CaptchaAI's base URL; {@link CaptchaAiClient#DEFAULT_BASE_URL}. */
    Builder baseUrl(String baseUrl);

    /** Connect timeout of calls to CaptchaAI; {@link CaptchaAiClient#DEFAULT_CONNECT_TIMEOUT}. */
    Builder connectTimeout(Duration connectTimeout);

    /** Read timeout of calls to CaptchaAI; {@link CaptchaAiClient#DEFAULT_READ_TIMEOUT}. */
    Builder readTimeout(Duration readTimeout);

    /** A ready client instead of key, base URL and timeouts. */
    Builder client(CaptchaAiClient client);

    /** The engine's timing and limits; {@link SolveSettings#defaults()}. */
    Builder settings(SolveSettings settings);

    /** This node's JobRunr server; {@link WorkerSettings#defaults()}. */
    Builder worker(WorkerSettings worker);

    /** The webhooks a worker delivers; {@link WebhookSettings#defaults()} (none: no secret). */
    Builder webhooks(WebhookSettings webhooks);

    /** The retention pass of a worker; {@link RetentionSettings#defaults()}. */
    Builder retention(RetentionSettings retention);

    /** The pushes of answers; {@link PingbackSettings#none()}. */
    Builder pingbacks(PingbackSettings pingbacks);

    /** Serves the dashboard ({@code captchajobs-console}); none. */
    Builder dashboard(DashboardSettings dashboard);

    /**
     * Adds a provider beside the primary (another key, or a backup service, see docs/providers.md);
     * none. Each name once.
     */
    Builder provider(ProviderSettings provider);

    /**
     * How long after its claim an answer may be reported ({@link Solves#report}), 1s-1h; 10 min.
     */
    Builder reportWindow(Duration reportWindow);

    /** Where the engine reports submits, solves, errors, polls, claims and hand-offs; none. */
    Builder listener(EngineListener listener);

    /** This node's clock, the system's; the engine adds its offset to the database's clock. */
    Builder clock(Clock clock);

    /**
     * Migrates the schema and starts this node's parts.
     *
     * @throws InvalidSettingException naming the builder method of a setting that cannot work
     * @throws IllegalStateException when the database refuses
     */
    CaptchaJobs build();
  }
}
