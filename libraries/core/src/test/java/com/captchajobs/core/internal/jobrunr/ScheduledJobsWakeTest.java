package com.captchajobs.core.internal.jobrunr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.settings.WorkerSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.JobDetails;
import org.jobrunr.jobs.states.JobState;
import org.jobrunr.jobs.states.ScheduledState;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.server.BackgroundJobServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * {@link ScheduledJobsWake} on a real JobRunr server, the master of its tables, and real
 * PostgreSQL: when the master moves a scheduled job to ENQUEUED, the fleet is told through {@code
 * pg_notify} (so every worker fetches it at once rather than at its next poll), after the move was
 * saved; many moves at once fold into fewer notifications.
 */
class ScheduledJobsWakeTest {

  static final String NODE = "wake-node";

  static String url;
  static HikariDataSource dataSource;
  static OwnJobRunr jobRunr;
  static BackgroundJobServer server;
  static Dispatcher dispatcher;
  static final OwnJobRunrTest.WorkHandler handler = new OwnJobRunrTest.WorkHandler();

  @BeforeAll
  static void start() {
    url = EmbeddedPostgresSupport.newDatabase();
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(url);
    dataSource.setMaximumPoolSize(5);
    Schema schema = Schema.named("captchajobs");
    schema.migrate(dataSource);
    jobRunr = OwnJobRunr.open(dataSource, schema);
    dispatcher = new Dispatcher(dataSource, NODE);
    server =
        jobRunr.startServer(
            new WorkerSettings("wake-test", Duration.ofSeconds(5), 2, Duration.ZERO),
            Map.of(OwnJobRunrTest.WorkHandler.class, handler),
            List.of(new ScheduledJobsWake(dispatcher::scheduledEnqueued)));
    dispatcher.fetchInto(server, null);
  }

  @AfterAll
  static void stop() {
    dispatcher.close();
    jobRunr.close();
    dataSource.close();
  }

  @Test
  void theFleetIsToldWhenTheMasterEnqueuesAScheduledJobAfterTheMoveWasSaved() throws Exception {
    try (Connection listener = DriverManager.getConnection(url);
        Statement s = listener.createStatement()) {
      s.execute("LISTEN " + SolveNotifications.DISPATCH_CHANNEL);
      UUID id = UUID.randomUUID();
      jobRunr
          .scheduler()
          .schedule(id, Instant.now().plusSeconds(1), new OwnJobRunrTest.Work(id, false));
      assertThat(state(id)).isEqualTo(StateName.SCHEDULED);

      List<PGNotification> heard = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                PGNotification[] some = listener.unwrap(PGConnection.class).getNotifications(1_000);
                if (some != null) {
                  heard.addAll(List.of(some));
                }
                return heard.stream().anyMatch(n -> NODE.equals(n.getParameter()));
              });
      // told only after the move was committed: a worker woken now finds the job
      assertThat(state(id)).isNotEqualTo(StateName.SCHEDULED);
      await().atMost(Duration.ofSeconds(60)).until(() -> handler.ran.contains(id));
    }
  }

  @Test
  void manyJobsEnqueuedAtOnceFoldIntoFewerNotifications() throws Exception {
    try (Connection listener = DriverManager.getConnection(url);
        Statement s = listener.createStatement()) {
      s.execute("LISTEN " + SolveNotifications.DISPATCH_CHANNEL);
      ScheduledJobsWake wake = new ScheduledJobsWake(dispatcher::scheduledEnqueued);
      Job job =
          new Job(
              new JobDetails(new OwnJobRunrTest.Work(UUID.randomUUID(), false)),
              new ScheduledState(Instant.now()));
      job.enqueue();
      JobState scheduled = job.getJobState(-2);
      JobState enqueued = job.getJobState();

      for (int i = 0; i < 200; i++) {
        wake.onStateApplied(job, scheduled, enqueued); // one master pass moving 200 jobs
      }
      wake.onStateApplied(job, enqueued, enqueued); // not a move of a scheduled job

      List<PGNotification> heard = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                PGNotification[] some = listener.unwrap(PGConnection.class).getNotifications(500);
                if (some != null && some.length > 0) {
                  heard.addAll(List.of(some));
                  return false; // until they stop coming
                }
                return !heard.isEmpty();
              });
      assertThat(heard.stream().filter(n -> NODE.equals(n.getParameter())).count())
          .isBetween(1L, 199L);
    }
  }

  private static StateName state(UUID id) {
    return jobRunr.storage().getJobById(id).getState();
  }
}
