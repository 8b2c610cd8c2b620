package com.captchajobs.core.internal.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.BlackholeProxy;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** LISTEN/NOTIFY on a real PostgreSQL, including a lost connection. */
class SolveNotificationsTest {

  SolveRepository repository;
  SolveTransitions transitions;
  SolveNotifications notifications;
  String url;

  @BeforeEach
  void start() throws Exception {
    url = EmbeddedPostgresSupport.newDatabase();
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(url);
    Schema.defaultSchema().migrate(dataSource);
    repository = new SolveRepository(dataSource, Schema.defaultSchema());
    transitions = new SolveTransitions(dataSource, Schema.defaultSchema());
    notifications =
        new SolveNotifications(
                () -> DriverManager.getConnection(url),
                id -> repository.find(id).map(Solve::status),
                Duration.ofMillis(200))
            .start();
    assertThat(notifications.awaitListening(Duration.ofSeconds(10))).isTrue();
  }

  @AfterEach
  void stop() {
    notifications.close();
  }

  UUID insert(String businessKey) throws SQLException {
    UUID id = UUID.randomUUID();
    insertQueued(id, businessKey);
    return id;
  }

  /** A QUEUED row of the Java API client, as an enqueue stores it (no gate slot involved). */
  void insertQueued(UUID id, String businessKey) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO captchajobs.solve (id, client, business_key, type, params,"
                    + " payload_hash, priority, callback_url, status, job_id)"
                    + " VALUES (?, ?, ?, ?, ?::jsonb, ?, 0, NULL, 'QUEUED', ?)")) {
      ps.setObject(1, id);
      ps.setString(2, SolveRepository.JAVA_API_CLIENT);
      ps.setString(3, businessKey);
      ps.setString(4, CaptchaType.TURNSTILE.name());
      ps.setString(5, "{\"pageUrl\": \"https://a.test/\", \"sitekey\": \"k\"}");
      ps.setString(6, "0".repeat(64));
      ps.setObject(7, UUID.randomUUID());
      ps.executeUpdate();
    }
  }

  @Test
  void aSubscriberAndAGlobalListenerSeeEveryStatusChangeOfTheSolve() throws SQLException {
    UUID id = UUID.randomUUID();
    List<SolveStatus> seen = new CopyOnWriteArrayList<>();
    List<String> global = new CopyOnWriteArrayList<>();
    notifications.subscribe(id, seen::add);
    notifications.addListener((solveId, status) -> global.add(solveId + ":" + status));

    insertQueued(id, "notify-1");
    transitions.markSubmitted(
        id,
        new SolveTransitions.Submitted(
            "123", Instant.now(), UUID.randomUUID(), null, false, null, null));
    transitions.markFailed(id, "ERROR_X", ErrorClass.REQUEST);

    await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains(SolveStatus.FAILED));
    // A reconnect on a busy machine (liveness check timed out) re-delivers the row's current
    // status, so a status may arrive twice; none may be missing or out of order.
    assertThat(seen.stream().distinct())
        .containsExactly(SolveStatus.QUEUED, SolveStatus.SUBMITTED, SolveStatus.FAILED);
    assertThat(global).contains(id + ":FAILED");
  }

  @Test
  void afterALostConnectionItReconnectsAndSubscribersGetTheCurrentStatusOfTheRow()
      throws Exception {
    UUID id = insert("notify-2");
    List<SolveStatus> seen = new CopyOnWriteArrayList<>();
    AutoCloseable subscription = notifications.subscribe(id, seen::add);
    List<Boolean> reconnects = new CopyOnWriteArrayList<>();
    notifications.addListener(
        new SolveNotifications.Listener() {
          @Override
          public void onStatus(UUID solveId, SolveStatus status) {}

          @Override
          public void onReconnect() {
            reconnects.add(true);
          }
        });

    notifications.dropConnection();
    await().atMost(Duration.ofSeconds(10)).until(() -> !reconnects.isEmpty());
    assertThat(seen).contains(SolveStatus.QUEUED); // the re-check after reconnecting
    transitions.markFailed(id, "ERROR_X", ErrorClass.REQUEST);
    await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains(SolveStatus.FAILED));

    subscription.close();
    assertThat(notifications.subscribedSolves()).isZero();
  }

  @Test
  void aListenBackendKilledOnTheServerIsReplacedAndTheOutcomeStillArrivesWithinSeconds()
      throws Exception {
    // a name of this test's own: every engine's notification connection is named
    // captchajobs-notifications, and other tests' engines share this PostgreSQL server
    String name = "notify-killed-" + UUID.randomUUID().toString().substring(0, 8);
    String named = url + "&ApplicationName=" + name;
    SolveNotifications listening =
        new SolveNotifications(
                () -> DriverManager.getConnection(named),
                id -> repository.find(id).map(Solve::status),
                Duration.ofMillis(200))
            .start();
    try {
      assertThat(listening.awaitListening(Duration.ofSeconds(10))).isTrue();
      UUID id = insert("notify-killed");
      List<SolveStatus> seen = new CopyOnWriteArrayList<>();
      listening.subscribe(id, seen::add);

      try (var c = DriverManager.getConnection(url);
          var s = c.createStatement();
          var rs =
              s.executeQuery(
                  "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                      + " WHERE application_name = '"
                      + name
                      + "'")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(1);
      }
      transitions.markFailed(id, "ERROR_X", ErrorClass.REQUEST);

      await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains(SolveStatus.FAILED));
    } finally {
      listening.close();
    }
  }

  @Test
  void aHalfOpenListenConnectionIsNoticedAndTheOutcomeStillArrivesWithinSeconds() throws Exception {
    int port = Integer.parseInt(url.replaceAll(".*://[^:/]+:(\\d+)/.*", "$1"));
    try (BlackholeProxy proxy = new BlackholeProxy(port)) {
      String proxied = url.replace(":" + port + "/", ":" + proxy.port() + "/");
      SolveNotifications listening =
          new SolveNotifications(
                  () -> DriverManager.getConnection(proxied),
                  id -> repository.find(id).map(Solve::status),
                  Duration.ofMillis(200))
              .start();
      try {
        assertThat(listening.awaitListening(Duration.ofSeconds(10))).isTrue();
        UUID id = insert("notify-half-open");
        List<SolveStatus> seen = new CopyOnWriteArrayList<>();
        listening.subscribe(id, seen::add);

        proxy.blackholeOpen(); // neither end learns that nothing gets through any more
        transitions.markFailed(id, "ERROR_X", ErrorClass.REQUEST);

        long started = System.nanoTime();
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains(SolveStatus.FAILED));
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.println(
            "HALF-OPEN LISTEN connection: outcome delivered after " + millis + " ms");
      } finally {
        listening.close();
      }
    }
  }
}
