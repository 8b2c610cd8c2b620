package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A solve enqueued while a slot is free reaches in.php without waiting for JobRunr's poll: the poll
 * interval here is 30 s, the bound on the hand-over 1 s. The nodes use a connection pool, as every
 * real node does (without one each statement opens a connection, which alone costs most of a second
 * here).
 */
class DispatchWithoutPollTest {

  /**
   * Without the wake-up a submit waits for JobRunr's poll (30 s here, 5 s at the least). The
   * dispatch figure itself (p95 0.02–0.03 s on a quiet machine) is measured by the bench; here two
   * test JVMs share the cores, and the bound is 1 s, the target for a free slot.
   */
  static final Duration WELL_BEFORE_ANY_POLL = Duration.ofSeconds(1);

  static final String KEY = "dispatch0dispatch0dispatch0dispa";
  static final Duration JOBRUNR_POLL = Duration.ofSeconds(30);

  /** Far below the poll interval: only a wake-up submits the solve this early. */
  static final Duration LONG_BEFORE_THE_POLL = Duration.ofSeconds(10);

  CaptchaAiSimulator simulator;
  HikariDataSource dataSource;

  @BeforeEach
  void start() {
    simulator = CaptchaAiSimulator.builder().account(KEY, 3).timeScale(0.1).build().start();
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(10);
  }

  @AfterEach
  void stop() {
    simulator.close();
    dataSource.close();
  }

  @Test
  void aSolveEnqueuedWhileASlotIsFreeIsSubmittedLongBeforeJobRunrsThirtySecondPoll()
      throws SQLException {
    try (CaptchaJobs worker =
            CaptchaJobs.builder()
                .dataSource(dataSource)
                .apiKey(KEY)
                .baseUrl(simulator.baseUrl())
                .jobPollInterval(JOBRUNR_POLL)
                .settings(
                    SolveSettings.builder()
                        .threads(3)
                        .firstPollWait(CaptchaType.TURNSTILE, Duration.ofSeconds(1))
                        .build())
                .nodeName("dispatch-worker")
                .build();
        CaptchaJobs app =
            CaptchaJobs.builder().dataSource(dataSource).nodeName("dispatch-app").build()) {
      // The first solve may ride on JobRunr's first fetch after start; wait until it is done, so
      // that the next fetch by poll is 30 s away.
      UUID first = worker.solves().enqueue(turnstile("dispatch-0"));
      assertThat(worker.solves().await(first, Duration.ofSeconds(20)).join().status())
          .isEqualTo(SolveStatus.SOLVED);

      // Enqueued on a node without a worker: the wake-up crosses nodes through PostgreSQL.
      app.solves().enqueue(turnstile("dispatch-1"));
      assertThat(
              await()
                  .atMost(LONG_BEFORE_THE_POLL)
                  .until(() -> enqueueToInPhp("dispatch-1"), Optional::isPresent)
                  .get())
          .isLessThan(WELL_BEFORE_ANY_POLL);
      assertThat(simulator.stats(KEY).acceptedSubmits()).isEqualTo(2);

      // Enqueued on the worker node itself.
      worker.solves().enqueue(turnstile("dispatch-2"));
      assertThat(
              await()
                  .atMost(LONG_BEFORE_THE_POLL)
                  .until(() -> enqueueToInPhp("dispatch-2"), Optional::isPresent)
                  .get())
          .isLessThan(WELL_BEFORE_ANY_POLL);
      assertThat(simulator.stats(KEY).acceptedSubmits()).isEqualTo(3);
    }
  }

  /** Stored → submitted, from the row's own instants (in.php is called just before the latter). */
  private Optional<Duration> enqueueToInPhp(String businessKey) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT created_at, submitted_at FROM captchajobs.solve WHERE business_key = ?")) {
      s.setString(1, businessKey);
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getTimestamp(2) == null
            ? Optional.empty()
            : Optional.of(
                Duration.between(rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant()));
      }
    }
  }

  private static SolveRequest turnstile(String businessKey) {
    return SolveRequest.turnstile(
        businessKey, "0x4AAAAAAADnPIDROrmt1Wwj", "https://shop.example.test/" + businessKey);
  }
}
