package com.captchajobs.core.internal.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.core.testing.Sql;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The gate on its own, against real PostgreSQL: atomic hand-out, priority, idempotent release,
 * reclaim; and its priority order on a worker, where a solve waits for a thread.
 */
@Execution(ExecutionMode.CONCURRENT)
class FleetGateTest {

  HikariDataSource dataSource;
  Sql jdbc;

  @BeforeEach
  void freshDatabase() {
    // pooled, as in production: a new backend per statement would measure PostgreSQL's fork, not
    // the gate
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(30);
    Schema.defaultSchema().migrate(dataSource);
    jdbc = new Sql(dataSource);
    // The gate's reclaim reads JobRunr's server table; a minimal stand-in for it here.
    jdbc.execute(
        "CREATE TABLE captchajobs.cj_jobrunr_backgroundjobservers (id char(36) PRIMARY KEY)");
  }

  @AfterEach
  void closePool() {
    dataSource.close();
  }

  UUID waitingSolve(int priority) {
    UUID id = UUID.randomUUID();
    jdbc.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, priority,"
            + " status, waiting_since) VALUES (?, ?, 'TURNSTILE', '{}'::jsonb, 'x', ?, 'WAITING_FOR_THREAD', now())",
        id,
        "gate-" + id,
        priority);
    return id;
  }

  @Test
  void manyThreadsRacingForOneSlotNeverProduceTwoHolders() throws Exception {
    FleetGate gate =
        new FleetGate(dataSource, Schema.defaultSchema(), Duration.ofMinutes(3), "node-a");
    gate.resize(1);
    for (int i = 0; i < 300; i++) {
      waitingSolve(0);
    }
    AtomicInteger holders = new AtomicInteger();
    AtomicInteger maxHolders = new AtomicInteger();
    AtomicInteger handed = new AtomicInteger();
    ConcurrentHashMap<UUID, Boolean> seen = new ConcurrentHashMap<>();
    List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(24);
    List<Future<?>> runs = new ArrayList<>();
    for (int t = 0; t < 24; t++) {
      runs.add(
          pool.submit(
              () -> {
                go.await();
                while (handed.get() < 300) {
                  List<FleetGate.Handoff> got = gate.dispatch();
                  for (FleetGate.Handoff h : got) {
                    try {
                      int now = holders.incrementAndGet();
                      maxHolders.accumulateAndGet(now, Math::max);
                      if (seen.putIfAbsent(h.solveId(), true) != null) {
                        problems.add("handed twice: " + h.solveId());
                      }
                      int inDb =
                          jdbc.queryForObject(
                              "SELECT count(*) FROM captchajobs.gate_slot WHERE solve_id IS NOT NULL",
                              Integer.class);
                      maxHolders.accumulateAndGet(inDb, Math::max);
                      holders.decrementAndGet();
                      jdbc.update(
                          "UPDATE captchajobs.solve SET status = 'SOLVED' WHERE id = ?",
                          h.solveId());
                    } catch (RuntimeException e) {
                      problems.add(e.toString());
                    } finally {
                      if (!gate.release(h.solveId())) {
                        problems.add("release found no slot for " + h.solveId());
                      }
                      handed.incrementAndGet();
                    }
                  }
                  if (got.isEmpty() && gate.waiting() == 0) {
                    break;
                  }
                }
                return null;
              }));
    }
    go.countDown();
    for (Future<?> run : runs) {
      run.get(1, TimeUnit.MINUTES);
    }
    pool.shutdown();

    assertThat(problems).isEmpty();
    assertThat(handed.get()).isEqualTo(300);
    assertThat(seen).hasSize(300);
    assertThat(maxHolders.get()).isEqualTo(1);
  }

  @Test
  void aFreedSlotGoesToTheHighestPriorityThenTheOldestWaitingSolve() {
    FleetGate gate =
        new FleetGate(dataSource, Schema.defaultSchema(), Duration.ofMinutes(3), "node-a");
    gate.resize(1);
    UUID oldLow = waitingSolve(0);
    UUID newLow = waitingSolve(0);
    UUID high = waitingSolve(10);

    assertThat(gate.dispatch()).extracting(FleetGate.Handoff::solveId).containsExactly(high);
    assertThat(gate.dispatch()).isEmpty();
    gate.release(high);
    assertThat(gate.dispatch()).extracting(FleetGate.Handoff::solveId).containsExactly(oldLow);
    gate.release(oldLow);
    assertThat(gate.dispatch()).extracting(FleetGate.Handoff::solveId).containsExactly(newLow);
  }

  @Test
  void releaseIsIdempotent() {
    FleetGate gate =
        new FleetGate(dataSource, Schema.defaultSchema(), Duration.ofMinutes(3), "node-a");
    gate.resize(1);
    UUID id = waitingSolve(0);
    assertThat(gate.dispatch()).hasSize(1);

    assertThat(gate.release(id)).isTrue();
    assertThat(gate.release(id)).isFalse();
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void aSlotOfAServerThatLeftIsReclaimedUnlessItsTaskIsAlreadyAtTheProvider() {
    UUID neverRegistered = UUID.randomUUID(); // as if JobRunr had dropped it
    FleetGate gate =
        new FleetGate(
            dataSource,
            Schema.defaultSchema(),
            Duration.ofMinutes(3),
            "node-dead",
            () -> neverRegistered);
    gate.resize(2);
    UUID notSubmitted = waitingSolve(0);
    UUID submitted = waitingSolve(0);
    assertThat(gate.dispatch()).hasSize(2);
    jdbc.update(
        "UPDATE captchajobs.solve SET status = 'SUBMITTED', task_id = '1' WHERE id = ?", submitted);

    assertThat(gate.reclaim()).isEqualTo(1);
    assertThat(
            jdbc.queryForList(
                "SELECT solve_id FROM captchajobs.gate_slot WHERE solve_id IS NOT NULL",
                UUID.class))
        .containsExactly(submitted);
  }

  @Test
  void aSlotWhoseLeaseEndedIsReclaimed() {
    FleetGate gate =
        new FleetGate(dataSource, Schema.defaultSchema(), Duration.ofMillis(1), "node-a");
    gate.resize(1);
    UUID id = waitingSolve(0);
    assertThat(gate.dispatch()).hasSize(1);
    jdbc.update("UPDATE captchajobs.solve SET status = 'SUBMITTED' WHERE id = ?", id);
    jdbc.update("UPDATE captchajobs.gate_slot SET lease_until = now() - interval '1 second'");

    assertThat(gate.reclaim()).isEqualTo(1);
    assertThat(gate.inFlight()).isZero();
  }

  @Test
  void aSlotHeldForALostSubmitStaysTakenUntilItsHoldEndsThoughTheSolveGaveItUp() {
    FleetGate gate =
        new FleetGate(dataSource, Schema.defaultSchema(), Duration.ofMinutes(3), "node-a");
    gate.resize(1);
    UUID lost = waitingSolve(0);
    UUID next = waitingSolve(0);
    assertThat(gate.dispatch()).extracting(FleetGate.Handoff::solveId).containsExactly(lost);

    assertThat(gate.holdAfterLostSubmit(lost, Duration.ofMinutes(1))).isTrue();
    assertThat(gate.release(lost)).isFalse(); // the solve no longer holds it...
    assertThat(gate.reclaim()).isZero(); // ...but no rule frees the phantom early
    assertThat(gate.dispatch()).isEmpty();
    assertThat(gate.inFlight()).isEqualTo(1);

    jdbc.update("UPDATE captchajobs.gate_slot SET lease_until = now() - interval '1 second'");
    assertThat(gate.dispatch()).extracting(FleetGate.Handoff::solveId).containsExactly(next);
  }

  @Test
  void theCapacityBoundsTheSlotsHandedOut() {
    FleetGate gate =
        new FleetGate(dataSource, Schema.defaultSchema(), Duration.ofMinutes(3), "node-a");
    gate.resize(5);
    gate.resize(3); // shrinking keeps the rows but hands out only the first three
    for (int i = 0; i < 6; i++) {
      waitingSolve(0);
    }
    assertThat(gate.dispatch()).hasSize(3);
    assertThat(gate.capacity()).isEqualTo(3);
  }

  /** The end-to-end test's account: one thread of ours, five of the provider's. */
  static final String SATURATION_KEY = "saturationKeySATURATIONkey123456";

  @Test
  void aHighPrioritySolveEnqueuedBehindABacklogIsSubmittedBeforeIt() {
    try (CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder()
                .account(SATURATION_KEY, 5)
                .solveTime("turnstile", Duration.ofMillis(800), Duration.ofMillis(800))
                .build()
                .start();
        EngineNode node =
            EngineNode.onFreshDatabase(
                sim,
                SATURATION_KEY,
                Map.of("captchaai.threads", "1", "captchaai.first-poll-wait.TURNSTILE", "1s"))) {
      SolveProbe solves = node.probe();
      SolveEnqueuer enqueuer = node.part(SolveEnqueuer.class);
      List<UUID> backlog = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        backlog.add(solves.turnstile("backlog-" + i));
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  backlog.stream()
                          .filter(id -> solves.get(id).status() == SolveStatus.WAITING_FOR_THREAD)
                          .count()
                      >= 3);
      UUID urgent =
          enqueuer
              .enqueue(
                  SolveRepository.JAVA_API_CLIENT,
                  "checkout-urgent",
                  CaptchaType.TURNSTILE,
                  Map.of(
                      "sitekey",
                      "0x4AAAAAAADnPIDROrmt1Wwj",
                      "pageUrl",
                      SolveProbe.pageUrl("checkout-urgent")),
                  10,
                  null,
                  0)
              .orElseThrow()
              .id();
      // Once the urgent solve has reached the queue (parked, or straight through), every backlog
      // solve still waiting then must be submitted after it.
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> solves.get(urgent).status() != SolveStatus.QUEUED);
      List<UUID> waitingWhenUrgentQueued =
          backlog.stream()
              .filter(id -> solves.get(id).status() == SolveStatus.WAITING_FOR_THREAD)
              .toList();

      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  backlog.stream().allMatch(id -> solves.get(id).status().isFinal())
                      && solves.get(urgent).status().isFinal());
      Solve first = solves.get(urgent);
      assertThat(waitingWhenUrgentQueued).isNotEmpty();
      assertThat(waitingWhenUrgentQueued)
          .allSatisfy(id -> assertThat(solves.get(id).submittedAt()).isAfter(first.submittedAt()));
    }
  }
}
