package com.captchajobs.core.internal.upkeep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.engine.SolveJobs;
import com.captchajobs.core.internal.store.LivenessLock;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.states.JobState;
import org.jobrunr.jobs.states.ProcessingState;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.storage.BackgroundJobServerStatus;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A worker killed with kill -9 loses its liveness lock at once; every node reads who holds theirs
 * every second. A node that sees a server it saw live lose its lock takes back that server's
 * running jobs there and then (under the repair pass's lock), so the solves they were moving resume
 * a repair pass sooner: here the repair pass is an hour away. The dead server is a JobRunr server
 * registered in storage whose lock a connection of the test held; on real PostgreSQL and JobRunr.
 */
class DeadServerSeenByTheLivenessWatchTest {

  static final String KEY = "deadWatchKeyDEADWATCHkeyDEADW123";

  static CaptchaAiSimulator sim;
  static EngineNode node;
  static SolveProbe solves;

  @BeforeAll
  static void start() {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 5)
            .solveTime("userrecaptcha", Duration.ofSeconds(60), Duration.ofSeconds(70))
            .build()
            .start();
    node =
        EngineNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                // the first poll is a scheduled job of its own, a minute away
                "captchaai.first-poll-wait.RECAPTCHA_V2",
                "60s",
                "captchaai.reconcile-interval",
                "1h",
                "captchaai.provider-check-interval",
                "1h"));
    solves = node.probe();
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  @Test
  void aServerThatLosesItsLivenessLockHasItsRunningSolvesResumedWithoutWaitingForTheRepairPass()
      throws Exception {
    UUID id = solves.recaptchaV2("dead-server-watched");
    solves.awaitStatus(id, SolveStatus.SUBMITTED);
    UUID pollJob = SolveJobs.pollJobId(id, 1, 1);
    StorageProvider storage = node.part(StorageProvider.class);
    UUID dead = UUID.randomUUID();
    Instant now = Instant.now();
    storage.announceBackgroundJobServer(
        new BackgroundJobServerStatus(
            dead,
            "dead-server",
            4,
            5,
            Duration.ofHours(1),
            Duration.ofHours(1),
            now,
            now,
            true,
            0L,
            0L,
            0.0,
            0L,
            0L,
            0L,
            0.0));
    HikariDataSource pool = (HikariDataSource) node.dataSource();
    // a connection of its own, as a node's liveness lock has: it ends with the "process"
    try (Connection lock =
        DriverManager.getConnection(pool.getJdbcUrl(), pool.getUsername(), pool.getPassword())) {
      try (PreparedStatement ps =
          lock.prepareStatement("SELECT pg_try_advisory_lock(?, hashtext(?))")) {
        ps.setInt(1, LivenessLock.SPACE);
        ps.setString(2, dead.toString());
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next() && rs.getBoolean(1)).isTrue();
        }
      }
      node.part(Reconciler.class).observeServers(); // seen live
      Job scheduled = storage.getJobById(pollJob);
      List<JobState> states = new ArrayList<>(scheduled.getJobStates());
      states.add(new ProcessingState(dead, "dead-server"));
      storage.save(
          new Job(
              scheduled.getId(),
              scheduled.getVersion(),
              scheduled.getJobDetails(),
              states,
              new ConcurrentHashMap<>(scheduled.getMetadata())));
    } // kill -9: the server's connection ends, its lock with it

    // the old code waited for the repair pass, an hour away
    await()
        .atMost(Duration.ofSeconds(15))
        .until(
            () ->
                solves
                    .jdbc()
                    .queryForObject(
                        "SELECT repairs FROM captchajobs.solve WHERE id = ?", Integer.class, id),
            repairs -> repairs == 1);
    assertThat(storage.getJobById(pollJob).getState())
        .as("the dead server's running job")
        .isEqualTo(StateName.DELETED);
    assertThat(solves.get(id).taskId()).as("the stored task, resumed").isNotNull();
    assertThat(sim.stats().submitsByPageUrl())
        .containsEntry(SolveProbe.pageUrl("dead-server-watched"), 1L);
  }
}
