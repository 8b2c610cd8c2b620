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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jobrunr.server.BackgroundJobServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The {@link Dispatcher} on real PostgreSQL and a real JobRunr server whose own poll comes only
 * every 10 minutes: a job created after the server's last fetch runs when the dispatcher is woken,
 * so only the wake-up can have fetched it; a submit also tells every node through {@code
 * pg_notify}; a node has a thread to spare only while its server runs with an idle worker.
 */
class DispatcherTest {

  static final Duration NEVER_WITHIN_THE_TEST = Duration.ofMinutes(10);

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
    dispatcher = new Dispatcher(dataSource, "dispatch-node");
    assertThat(dispatcher.threadToSpare()).isFalse(); // no server yet
    server =
        jobRunr.startServer(
            new WorkerSettings("dispatcher-test", NEVER_WITHIN_THE_TEST, 2, Duration.ZERO),
            Map.of(OwnJobRunrTest.WorkHandler.class, handler),
            List.of());
    dispatcher.fetchInto(server, null);
  }

  @AfterAll
  static void stop() {
    dispatcher.close();
    jobRunr.close();
    dataSource.close();
  }

  /** Creates a job and returns its id once it ran; its creation follows the last fetch. */
  static UUID runsAfterAWakeUp(Runnable wakeUp) {
    // no worker busy: the fetch JobRunr makes when a worker frees up has been triggered already
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> server.getJobSteward().getOccupiedWorkerCount() == 0);
    UUID id = UUID.randomUUID();
    jobRunr.scheduler().enqueue(id, new OwnJobRunrTest.Work(id, false));
    wakeUp.run();
    await().atMost(Duration.ofSeconds(60)).until(() -> handler.ran.contains(id));
    return id;
  }

  @Test
  void aJobCreatedAfterTheLastFetchRunsOnAWakeUpLongBeforeJobRunrsNextPoll() {
    // the first may have been taken by the server's fetch at start; every later one only by a
    // wake-up, since JobRunr's own next fetch is ten minutes away
    runsAfterAWakeUp(dispatcher::pollReady);
    runsAfterAWakeUp(dispatcher::pollReady);
    runsAfterAWakeUp(dispatcher::submitReady);

    assertThat(handler.ran).hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void aSubmitTellsEveryNodeThroughTheDatabaseNamingItsSender() throws Exception {
    try (Connection listener = DriverManager.getConnection(url);
        Statement s = listener.createStatement()) {
      s.execute("LISTEN " + SolveNotifications.DISPATCH_CHANNEL);

      dispatcher.submitReady();

      PGNotification[] heard =
          listener.unwrap(PGConnection.class).getNotifications(30_000); // returns when one came
      assertThat(heard).isNotNull();
      assertThat(heard)
          .extracting(PGNotification::getName, PGNotification::getParameter)
          .contains(
              org.assertj.core.groups.Tuple.tuple(
                  SolveNotifications.DISPATCH_CHANNEL, "dispatch-node"));
    }
  }

  @Test
  void aNodeHasAThreadToSpareWhileItsServerRunsWithAnIdleWorker() {
    assertThat(dispatcher.threadToSpare()).isTrue();
  }
}
