package com.captchajobs.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.upkeep.Retention;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The timeline's records on real PostgreSQL: what they say, and that they go with their solve. */
class SolveEventsTest {

  static HikariDataSource dataSource;
  static Schema schema = Schema.named("captchajobs");
  static Db db;
  static SolveEvents events;

  @BeforeAll
  static void migrate() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(2);
    schema.migrate(dataSource);
    db = new Db(dataSource, schema);
    events = new SolveEvents(dataSource, schema);
  }

  @AfterAll
  static void close() {
    dataSource.close();
  }

  static UUID solve(String key, String status, String updatedAgo) {
    UUID id = UUID.randomUUID();
    db.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, status,"
            + " submits, updated_at) VALUES (?, ?, 'TURNSTILE', '{}'::jsonb, repeat('0', 64), ?, 2,"
            + " now() - ?::interval)",
        id,
        key,
        status,
        updatedAgo);
    return id;
  }

  static List<String> kindsAndDetails(UUID id) {
    return db.query(
        "SELECT kind || ': ' || coalesce(detail, '') FROM captchajobs.solve_event"
            + " WHERE solve_id = ? ORDER BY at, kind",
        rs -> rs.getString(1),
        id);
  }

  @Test
  void aSubmissionNamesItsNumberTheTaskAndTheNodeHoldingTheSlot() {
    UUID id = solve("ev-submit", "SUBMITTED", "0 s");
    db.update(
        "INSERT INTO captchajobs.gate_slot (slot_no, solve_id, node) VALUES (990, ?, 'worker-7')",
        id);

    events.submitted(id, "73000000042");

    assertThat(kindsAndDetails(id))
        .containsExactly("submit: submission 2, task 73000000042, node worker-7");
  }

  @Test
  void anEventOfASolveThatIsGoneIsDroppedWithoutAnError() {
    UUID gone = UUID.randomUUID();

    events.record(gone, SolveEvents.PUSH, "submission 1");

    assertThat(kindsAndDetails(gone)).isEmpty();
  }

  @Test
  void aLongDetailIsCutAt300Characters() {
    UUID id = solve("ev-long", "SOLVED", "0 s");

    events.record(id, SolveEvents.WEBHOOK, "x".repeat(1000));

    assertThat(kindsAndDetails(id)).singleElement().asString().hasSize("webhook: ".length() + 300);
  }

  @Test
  void theRetentionPassDeletesASolvesEventsWithTheSolve() {
    UUID old = solve("ev-old", "CLAIMED", "8 days");
    UUID young = solve("ev-young", "CLAIMED", "1 hour");
    events.record(old, SolveEvents.WEBHOOK, "SOLVED to receiver.example: HTTP 200");
    events.record(young, SolveEvents.WEBHOOK, "SOLVED to receiver.example: HTTP 200");

    assertThat(new Retention(dataSource, schema, Duration.ofDays(7)).run()).isPresent();

    assertThat(kindsAndDetails(old)).isEmpty();
    assertThat(kindsAndDetails(young))
        .containsExactly("webhook: SOLVED to receiver.example: HTTP 200");
  }
}
