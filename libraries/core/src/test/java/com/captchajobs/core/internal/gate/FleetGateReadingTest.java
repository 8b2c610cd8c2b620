package com.captchajobs.core.internal.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.model.Gate;
import com.captchajobs.core.model.SlotHolder;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.Sql;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The gate's fleet-wide reading: one reporter at a time, and who holds which slot. */
class FleetGateReadingTest {

  HikariDataSource dataSource;
  Sql jdbc;

  @BeforeEach
  void freshDatabase() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(4);
    Schema.defaultSchema().migrate(dataSource);
    jdbc = new Sql(dataSource);
    jdbc.execute(
        "CREATE TABLE captchajobs.cj_jobrunr_backgroundjobservers (id char(36) PRIMARY KEY)");
  }

  @AfterEach
  void closePool() {
    dataSource.close();
  }

  UUID waitingSolve() {
    UUID id = UUID.randomUUID();
    jdbc.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash,"
            + " status, waiting_since) VALUES (?, ?, 'TURNSTILE', '{}'::jsonb, 'x',"
            + " 'WAITING_FOR_THREAD', now())",
        id,
        "reading-" + id);
    return id;
  }

  FleetGate gate(String node) {
    return new FleetGate(dataSource, Schema.defaultSchema(), Duration.ofMinutes(3), node);
  }

  @Test
  void onlyOneNodeIsTheReporterUntilItStopsRenewingThenAnotherTakesOver() {
    FleetGate a = gate("node-a");
    FleetGate b = gate("node-b");
    a.resize(3);
    waitingSolve();
    waitingSolve();
    Duration lease = Duration.ofMillis(500);

    FleetGate.Reading first = a.read(lease);
    assertThat(first).isEqualTo(new FleetGate.Reading(new Gate(3, 0, 2), true));
    assertThat(b.read(lease)).isEqualTo(new FleetGate.Reading(new Gate(3, 0, 2), false));
    assertThat(a.read(lease).reporter()).as("the holder renews").isTrue();

    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> b.read(lease).reporter());
    assertThat(a.read(lease).reporter()).as("one reporter at a time").isFalse();
  }

  @Test
  void holdersNameTheSolveTheNodeAndTheLease() {
    FleetGate a = gate("node-a");
    a.resize(2);
    UUID solve = waitingSolve();
    List<FleetGate.Handoff> handed = a.dispatch();
    assertThat(handed).extracting(FleetGate.Handoff::solveId).containsExactly(solve);

    List<SlotHolder> holders = a.holders();
    assertThat(holders).hasSize(1);
    SlotHolder h = holders.get(0);
    assertThat(h.solveId()).isEqualTo(solve);
    assertThat(h.node()).isEqualTo("node-a");
    assertThat(h.since()).isNotNull();
    assertThat(h.leaseUntil()).isAfter(h.since());
    assertThat(a.read(Duration.ofSeconds(5)).gate().inFlight()).isEqualTo(1);
  }
}
