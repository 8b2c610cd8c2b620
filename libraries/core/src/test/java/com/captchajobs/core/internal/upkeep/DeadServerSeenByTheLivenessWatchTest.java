package com.captchajobs.core.internal.upkeep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.db.LivenessLock;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
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
 * a repair pass sooner: here the repair pass is an hour away. A solve the dead server was about to
 * submit (its submit lock taken, no task stored) is submitted again at once, its slot left to a
 * phantom, and so is one that a pushed fetch on the dead server's own executor was about to submit.
 * The dead server is a JobRunr server registered in storage whose lock a connection of the test
 * held; on real PostgreSQL and JobRunr.
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
            .account(KEY, 10)
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
                // room for every case's solves and phantoms: a resubmission never waits for a slot
                "captchaai.threads",
                "8",
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

    try (DeadServer dead = DeadServer.start(storage)) {
      dead.runs(storage.getJobById(pollJob), pollJob);
    } // kill -9: the server's connection ends, its lock with it

    // the old code waited for the repair pass, an hour away
    await().atMost(Duration.ofSeconds(15)).until(() -> repairs(id), repairs -> repairs == 1);
    assertThat(storage.getJobById(pollJob).getState())
        .as("the dead server's running job")
        .isEqualTo(StateName.DELETED);
    assertThat(solves.get(id).taskId()).as("the stored task, resumed").isNotNull();
    assertThat(sim.stats().submitsByPageUrl())
        .containsEntry(SolveProbe.pageUrl("dead-server-watched"), 1L);
  }

  @Test
  void aSolveADeadServerWasAboutToSubmitIsSubmittedAtOnceAndItsSlotStaysWithAPhantom()
      throws Exception {
    UUID template = solves.recaptchaV2("dead-server-template");
    solves.awaitStatus(template, SolveStatus.SUBMITTED);
    StorageProvider storage = node.part(StorageProvider.class);
    UUID job = UUID.randomUUID();
    // a solve handed a slot by the dead server's job: its submit lock taken, no task yet
    UUID id = handedASlot("dead-server-handed", job);
    Timestamp beforeKill = databaseNow();

    try (DeadServer dead = DeadServer.start(storage)) {
      dead.runs(storage.getJobById(SolveJobs.pollJobId(template, 1, 1)), job);
    }

    // the old code left it to its submit lock, 90 s away, and then to the repair pass
    assertResubmittedWithItsSlotLeftToAPhantom(id, beforeKill);
  }

  @Test
  void aSolveADeadServersOwnExecutorWasAboutToSubmitIsSubmittedAtOnceToo() throws Exception {
    StorageProvider storage = node.part(StorageProvider.class);
    Timestamp beforeKill = databaseNow();
    UUID id;
    try (DeadServer dead = DeadServer.start(storage)) {
      // handed a slot by a pushed fetch on the server's executor: the server is its carrier
      id = handedASlot("dead-executor-handed", dead.id);
    }

    // the old code took back running jobs only: the submit lock, 90 s away, then the repair pass
    assertResubmittedWithItsSlotLeftToAPhantom(id, beforeKill);
  }

  /** A solve handed a slot for {@code carrier} to submit: its submit lock taken, no task yet. */
  private static UUID handedASlot(String businessKey, UUID carrier) {
    UUID id = UUID.randomUUID();
    solves
        .jdbc()
        .update(
            "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
                + " job_id, submit_lock_until) VALUES (?, ?, 'TURNSTILE',"
                + " ?::jsonb, repeat('0', 64), 'QUEUED', ?, now() + interval '90 seconds')",
            id,
            businessKey,
            "{\"sitekey\":\"0x4AAAAAAAB\",\"pageUrl\":\"" + SolveProbe.pageUrl(businessKey) + "\"}",
            carrier);
    solves
        .jdbc()
        .update(
            "UPDATE captchajobs.gate_slot SET solve_id = ?, node = 'dead-server',"
                + " acquired_at = now(), lease_until = now() + interval '10 minutes'"
                + " WHERE slot_no = (SELECT min(slot_no) FROM captchajobs.gate_slot"
                + " WHERE solve_id IS NULL)",
            id);
    return id;
  }

  private static void assertResubmittedWithItsSlotLeftToAPhantom(UUID id, Timestamp beforeKill) {
    solves.awaitStatus(id, SolveStatus.SUBMITTED, Duration.ofSeconds(20));
    assertThat(
            solves
                .jdbc()
                .queryForObject(
                    "SELECT count(*)::int FROM captchajobs.gate_slot WHERE phantom"
                        + " AND lease_until > now() AND acquired_at >= ?",
                    Integer.class,
                    beforeKill))
        .as("the slot the dead server's in.php may use, left to a phantom since the kill")
        .isEqualTo(1);
    // the dead server's possible submission counted: a push for its task is an old submission's
    assertThat(solves.get(id).submits()).isEqualTo(2);
  }

  private static Timestamp databaseNow() {
    return solves.jdbc().queryForObject("SELECT clock_timestamp()", Timestamp.class);
  }

  private static int repairs(UUID id) {
    return solves
        .jdbc()
        .queryForObject("SELECT repairs FROM captchajobs.solve WHERE id = ?", Integer.class, id);
  }

  /**
   * A JobRunr server registered in storage whose liveness lock a connection of its own holds, seen
   * live by the node; closing it is its kill -9.
   */
  private static final class DeadServer implements AutoCloseable {
    final UUID id = UUID.randomUUID();
    final StorageProvider storage;
    final Connection lock;

    private DeadServer(StorageProvider storage, Connection lock) {
      this.storage = storage;
      this.lock = lock;
    }

    static DeadServer start(StorageProvider storage) throws Exception {
      HikariDataSource pool = (HikariDataSource) node.dataSource();
      Connection lock =
          DriverManager.getConnection(pool.getJdbcUrl(), pool.getUsername(), pool.getPassword());
      DeadServer server = new DeadServer(storage, lock);
      Instant now = Instant.now();
      storage.announceBackgroundJobServer(
          new BackgroundJobServerStatus(
              server.id,
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
      try (PreparedStatement ps =
          lock.prepareStatement("SELECT pg_try_advisory_lock(?, hashtext(?))")) {
        ps.setInt(1, LivenessLock.SPACE);
        ps.setString(2, server.id.toString());
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next() && rs.getBoolean(1)).isTrue();
        }
      }
      node.part(Reconciler.class).observeServers(); // seen live
      return server;
    }

    /** Saves a job like {@code template} under {@code jobId}, PROCESSING on this server. */
    void runs(Job template, UUID jobId) {
      List<JobState> states = new ArrayList<>(template.getJobStates());
      states.add(new ProcessingState(id, "dead-server"));
      storage.save(
          new Job(
              jobId,
              jobId.equals(template.getId()) ? template.getVersion() : 0,
              template.getJobDetails(),
              states,
              new ConcurrentHashMap<>(template.getMetadata())));
    }

    @Override
    public void close() throws Exception {
      lock.close();
    }
  }
}
