package com.captchajobs.core.internal.jobrunr;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.settings.WorkerSettings;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.jobrunr.jobs.filters.JobFilter;
import org.jobrunr.jobs.mappers.JobMapper;
import org.jobrunr.scheduling.BackgroundJobRequest;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.server.JobActivator;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.StorageProviderUtils.DatabaseOptions;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CaptchaJobs' own JobRunr: a storage provider on {@code <schema>.cj_jobrunr_*}, a scheduler, and
 * on workers a background job server (the dashboard over these jobs is captchajobs-console's).
 * JobRunr OSS has no queues, so separate tables are what keeps our jobs away from a host
 * application's own JobRunr servers and its jobs away from our retry filter. Nothing here is a
 * JobRunr global: the static {@code BackgroundJobRequest} facade keeps pointing at the host's
 * scheduler, if it has one.
 */
public final class OwnJobRunr implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(OwnJobRunr.class);

  private final StorageProvider storage;
  private final JsonMapper jsonMapper;
  private final JobRequestScheduler scheduler;
  private BackgroundJobServer server;
  private volatile UUID startedServerId;

  private OwnJobRunr(StorageProvider storage, JsonMapper jsonMapper) {
    this.storage = storage;
    this.jsonMapper = jsonMapper;
    this.scheduler = schedulerLeavingTheStaticFacadeAlone(storage);
  }

  /**
   * The tables of our solve jobs: {@code <schema>.cj_jobrunr_*}. The {@code cj_} keeps every name
   * apart from a host JobRunr's, whatever its prefix (see {@link JobRunrTables}); the earlier
   * {@code <schema>.jobrunr_*} move there on first start.
   */
  public static JobRunrTables jobTables(Schema schema) {
    return new JobRunrTables(schema.name(), "cj_", "");
  }

  /**
   * The tables of the webhook deliveries' own JobRunr: {@code <schema>.cj_webhook_jobrunr_*}
   * (earlier {@code <schema>.webhook_jobrunr_*}).
   */
  public static JobRunrTables webhookTables(Schema schema) {
    return new JobRunrTables(schema.name(), "cj_webhook_", "webhook_");
  }

  /**
   * Opens (and creates or upgrades) our solve jobs' JobRunr tables; the schema must exist. The
   * webhook deliveries' tables of the earlier layout move forward too, on every node.
   */
  public static OwnJobRunr open(DataSource dataSource, Schema schema) {
    webhookTables(schema).moveEarlierLayout(dataSource);
    return open(dataSource, jobTables(schema));
  }

  /**
   * Opens a JobRunr storage on {@code tables}, after creating or upgrading them. The JSON mapper is
   * JobRunr's Jackson 2 one, whatever Jackson a host has besides: the core depends on Jackson 2
   * only, which Spring Boot 3.5 and 4 both manage, so every node reads every other node's jobs.
   */
  public static OwnJobRunr open(DataSource dataSource, JobRunrTables tables) {
    SupportedJobRunr.require();
    tables.migrate(dataSource);
    JsonMapper jsonMapper = new JacksonJsonMapper();
    PostgresStorageProvider storage =
        new PostgresStorageProvider(dataSource, tables.tablePrefix(), DatabaseOptions.SKIP_CREATE);
    storage.setJobMapper(new JobMapper(jsonMapper));
    return new OwnJobRunr(storage, jsonMapper);
  }

  public JobRequestScheduler scheduler() {
    return scheduler;
  }

  /**
   * Jobs of a JobRunr storage by state, in JobRunr's order ({@code AWAITING}, {@code SCHEDULED},
   * {@code ENQUEUED}, {@code PROCESSING}, {@code FAILED}, {@code SUCCEEDED}, {@code DELETED}); one
   * query.
   */
  public static java.util.Map<String, Long> jobCounts(StorageProvider storage) {
    org.jobrunr.storage.JobStats stats = storage.getJobStats();
    java.util.Map<String, Long> counts = new java.util.LinkedHashMap<>();
    counts.put("AWAITING", zeroIfNull(stats.getAwaiting()));
    counts.put("SCHEDULED", zeroIfNull(stats.getScheduled()));
    counts.put("ENQUEUED", zeroIfNull(stats.getEnqueued()));
    counts.put("PROCESSING", zeroIfNull(stats.getProcessing()));
    counts.put("FAILED", zeroIfNull(stats.getFailed()));
    counts.put("SUCCEEDED", zeroIfNull(stats.getSucceeded()));
    counts.put("DELETED", zeroIfNull(stats.getDeleted()));
    return java.util.Collections.unmodifiableMap(counts);
  }

  private static long zeroIfNull(Long n) {
    return n == null ? 0 : n;
  }

  public StorageProvider storage() {
    return storage;
  }

  /** The JSON mapper of its jobs, JobRunr's Jackson 2 one (the dashboard reads jobs with it). */
  public JsonMapper jsonMapper() {
    return jsonMapper;
  }

  /**
   * Starts a background job server whose handlers are exactly {@code handlers} and whose filters
   * replace JobRunr's default retry filter.
   */
  public synchronized BackgroundJobServer startServer(
      WorkerSettings settings, Map<Class<?>, Object> handlers, List<JobFilter> filters) {
    JobActivator activator =
        new JobActivator() {
          @Override
          public <T> T activateJob(Class<T> type) {
            Object handler = handlers.get(type);
            if (handler == null) {
              throw new IllegalStateException("No CaptchaJobs handler for " + type.getName());
            }
            return type.cast(handler);
          }
        };
    BackgroundJobServerConfiguration configuration =
        BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
            .andName(settings.name())
            .andPollInterval(settings.pollInterval())
            .andWorkerCount(settings.workerCount())
            .andInterruptJobsAwaitDurationOnStopBackgroundJobServer(settings.shutdownWait());
    BackgroundJobServer created =
        new BackgroundJobServer(storage, jsonMapper, activator, configuration);
    created.setJobFilters(filters);
    created.start();
    server = created;
    startedServerId = created.getId();
    return created;
  }

  /**
   * The id of the background job server this JobRunr started, null before it started; it stays the
   * same when the server is started again, and is kept after it stopped.
   */
  public UUID serverId() {
    return startedServerId;
  }

  /** Stops the background job server, if one runs; the storage stays open. */
  public synchronized void stopServer() {
    if (server != null) {
      server.stop();
      server = null;
    }
  }

  @Override
  public synchronized void close() {
    stopServer();
    storage.close();
  }

  /**
   * JobRunr's {@code JobRequestScheduler} constructor installs itself as the static {@code
   * BackgroundJobRequest} scheduler. A host app that uses that facade must keep its own, so the
   * previous value is put back.
   */
  private static JobRequestScheduler schedulerLeavingTheStaticFacadeAlone(StorageProvider storage) {
    synchronized (BackgroundJobRequest.class) {
      Object previous;
      try {
        Field field = BackgroundJobRequest.class.getDeclaredField("jobRequestScheduler");
        field.setAccessible(true);
        previous = field.get(null);
      } catch (ReflectiveOperationException | RuntimeException e) {
        log.warn(
            "Could not read JobRunr's static BackgroundJobRequest scheduler: {}", e.toString());
        return new JobRequestScheduler(storage, List.of());
      }
      JobRequestScheduler ours = new JobRequestScheduler(storage, List.of());
      BackgroundJobRequest.setJobRequestScheduler((JobRequestScheduler) previous);
      return ours;
    }
  }
}
