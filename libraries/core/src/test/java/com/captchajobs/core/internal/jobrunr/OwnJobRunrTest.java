package com.captchajobs.core.internal.jobrunr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.settings.WorkerSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.Sql;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jobrunr.jobs.filters.RetryFilter;
import org.jobrunr.jobs.lambdas.JobRequest;
import org.jobrunr.jobs.lambdas.JobRequestHandler;
import org.jobrunr.scheduling.BackgroundJobRequest;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.storage.InMemoryStorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CaptchaJobs' own JobRunr on real PostgreSQL: its tables under their own prefix in our schema, a
 * host's static {@code BackgroundJobRequest} scheduler left as it was, a server that runs exactly
 * the handlers it was given and whose retry filter replaces JobRunr's default, its id kept after it
 * stopped, the counts by state in JobRunr's order, and its settings refused naming the builder
 * method.
 */
class OwnJobRunrTest {

  /** A job of this test; {@code fail} makes its handler throw. */
  public record Work(UUID id, boolean fail) implements JobRequest {
    @Override
    public Class<WorkHandler> getJobRequestHandler() {
      return WorkHandler.class;
    }
  }

  /** Remembers the jobs it ran. */
  public static final class WorkHandler implements JobRequestHandler<Work> {
    final Set<UUID> ran = ConcurrentHashMap.newKeySet();

    @Override
    public void run(Work work) {
      ran.add(work.id());
      if (work.fail()) {
        throw new IllegalStateException("failing on purpose");
      }
    }
  }

  static HikariDataSource dataSource;
  static Sql sql;
  static OwnJobRunr jobRunr;

  @BeforeAll
  static void start() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(5);
    Schema schema = Schema.named("captchajobs");
    schema.migrate(dataSource);
    jobRunr = OwnJobRunr.open(dataSource, schema);
    sql = new Sql(dataSource);
  }

  @AfterAll
  static void stop() {
    jobRunr.close();
    dataSource.close();
  }

  static Object staticScheduler() throws ReflectiveOperationException {
    Field field = BackgroundJobRequest.class.getDeclaredField("jobRequestScheduler");
    field.setAccessible(true);
    return field.get(null);
  }

  @Test
  void aHostsStaticSchedulerIsLeftAsItWas() throws Exception {
    synchronized (BackgroundJobRequest.class) { // the lock OwnJobRunr takes around the facade
      Object before = staticScheduler();
      try {
        JobRequestScheduler host =
            new JobRequestScheduler(new InMemoryStorageProvider(), List.of());
        assertThat(staticScheduler()).isSameAs(host); // what JobRunr's constructor does

        OwnJobRunr ours = OwnJobRunr.open(dataSource, Schema.named("captchajobs"));

        assertThat(staticScheduler()).isSameAs(host);
        assertThat(ours.scheduler()).isNotSameAs(host);
      } finally {
        BackgroundJobRequest.setJobRequestScheduler((JobRequestScheduler) before);
      }
    }
  }

  @Test
  void itsTablesCarryTheirOwnPrefixInOurSchemaAndNoneIsInPublic() {
    List<String> ours =
        sql.queryForList(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'captchajobs'"
                + " AND table_name LIKE '%jobrunr%' ORDER BY table_name",
            String.class);

    assertThat(ours).contains("cj_jobrunr_jobs", "cj_jobrunr_backgroundjobservers");
    assertThat(ours).allMatch(t -> t.startsWith("cj_jobrunr_") || t.startsWith("cj_webhook_"));
    assertThat(
            sql.queryForObject(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
                Long.class))
        .isZero();
  }

  @Test
  void aServerRunsOnlyItsHandlersAndItsRetryFilterReplacesJobRunrsTenRetries() {
    WorkHandler handler = new WorkHandler();
    assertThat(jobRunr.serverId()).isNull();
    jobRunr.startServer(
        new WorkerSettings("own-jobrunr-test", Duration.ofSeconds(5), 2, Duration.ZERO),
        Map.of(WorkHandler.class, handler),
        List.of(new RetryFilter(0))); // JobRunr's default would schedule ten retries
    UUID serverId = jobRunr.serverId();
    try {
      UUID ok = UUID.randomUUID();
      UUID failing = UUID.randomUUID();
      jobRunr.scheduler().enqueue(ok, new Work(ok, false));
      jobRunr.scheduler().enqueue(failing, new Work(failing, true));

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                assertThat(state(ok)).isEqualTo("SUCCEEDED");
                assertThat(state(failing)).isEqualTo("FAILED");
              });
      assertThat(handler.ran).containsExactlyInAnyOrder(ok, failing);
      Map<String, Long> counts = OwnJobRunr.jobCounts(jobRunr.storage());
      assertThat(counts.keySet())
          .containsExactly(
              "AWAITING", "SCHEDULED", "ENQUEUED", "PROCESSING", "FAILED", "SUCCEEDED", "DELETED");
      assertThat(counts).containsEntry("FAILED", 1L).containsEntry("SCHEDULED", 0L);
      assertThat(serverId).isNotNull();
    } finally {
      jobRunr.stopServer();
    }
    assertThat(jobRunr.serverId()).isEqualTo(serverId);
  }

  static String state(UUID job) {
    return sql
        .queryForList(
            "SELECT state FROM captchajobs.cj_jobrunr_jobs WHERE id = ?",
            String.class,
            job.toString())
        .stream()
        .findFirst()
        .orElse("none");
  }
}
