package com.captchajobs.core.internal.upkeep;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.ThreadsInfo;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.gate.ProviderLanes;
import com.captchajobs.core.internal.store.SolveTransitions;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.Sql;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The repair pass's evidence for a known task with push on ({@link PhantomRelease} over the gate's
 * {@code PhantomSlots}, real PostgreSQL): a cap of 2, known solve A holding one slot, the task of
 * B's lost in.php reply holding the other as a phantom, and the provider showing 1 working thread.
 * If A's task runs, that thread is A's and B's phantom stands for nothing: freed. If A's push rang
 * (A's answer is ready there, its thread free) but the fetch has not stored it yet, that thread may
 * be B's task: freeing the phantom would put a third task in flight as soon as a waiting solve
 * takes its slot.
 */
class PhantomPushEvidenceTest {

  static final int CAP = 2;

  HikariDataSource dataSource;
  Sql jdbc;
  FleetGate gate;
  UUID known;

  @BeforeEach
  void aKnownTaskWithPushAndAPhantom() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(4);
    Schema.defaultSchema().migrate(dataSource);
    jdbc = new Sql(dataSource);
    gate = new FleetGate(dataSource, Schema.defaultSchema(), Duration.ofMinutes(3), "node-a");
    gate.resize(CAP);
    known = waitingSolve();
    UUID lost = waitingSolve();
    assertThat(gate.dispatch()).hasSize(CAP);
    assertThat(gate.holdAfterLostSubmit(lost, Duration.ofMinutes(1))).isTrue();
    // A's task id stored a second before the reading, its in.php asked for a pingback
    jdbc.update(
        "UPDATE captchajobs.solve SET status = 'SUBMITTED', task_id = '7001', submits = 1,"
            + " submitted_at = now() - interval '1 second',"
            + " task_stored_at = now() - interval '1 second', push_expected = true WHERE id = ?",
        known);
  }

  @AfterEach
  void closePool() {
    dataSource.close();
  }

  private UUID waitingSolve() {
    UUID id = UUID.randomUUID();
    jdbc.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
            + " waiting_since) VALUES (?, ?, 'TURNSTILE', '{}'::jsonb, 'x', 'WAITING_FOR_THREAD',"
            + " now())",
        id,
        "phantom-push-" + id);
    return id;
  }

  /** The repair pass with a provider that shows {@code working} working threads. */
  private int repairPassSeeing(int working) {
    return new PhantomRelease(ProviderLanes.PRIMARY, () -> new ThreadsInfo(CAP + 2, working))
        .release(gate.phantomSlots());
  }

  @Test
  void aKnownTaskWhosePushRangBeforeTheReadingDoesNotLetThePhantomGo() {
    assertThat(new SolveTransitions(dataSource, Schema.defaultSchema()).pushRings().ring(known, 1))
        .as("A's push rang")
        .isPresent();

    assertThat(repairPassSeeing(CAP - 1)).isZero();

    assertThat(gate.phantomSlots().held(ProviderLanes.PRIMARY))
        .as("B's phantom still holds its slot")
        .isEqualTo(1);
  }

  @Test
  void aKnownTaskWhosePushIsStillAwaitedLetsThePhantomGo() {
    assertThat(repairPassSeeing(CAP - 1)).isEqualTo(1);

    assertThat(gate.phantomSlots().held(ProviderLanes.PRIMARY)).isZero();
  }

  @Test
  void aPushForAnEarlierSubmissionDoesNotStopTheKnownTaskCounting() {
    // the ring of submission 1 stays on the row; A runs submission 2 now, its push awaited
    assertThat(new SolveTransitions(dataSource, Schema.defaultSchema()).pushRings().ring(known, 1))
        .isPresent();
    jdbc.update("UPDATE captchajobs.solve SET submits = 2, task_id = '7002' WHERE id = ?", known);

    assertThat(repairPassSeeing(CAP - 1)).isEqualTo(1);
  }
}
