package com.captchajobs.core.internal.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's few lines of JDBC on real PostgreSQL: how values are bound and read, what a failed
 * statement says, the advisory locks of the repair pass and of capped inserts, the query timeout.
 */
class DbTest {

  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;

  @BeforeAll
  static void migrate() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(3);
    schema.migrate(dataSource);
    db = new Db(dataSource, schema);
    db.update("CREATE TABLE captchajobs.db_test (id uuid PRIMARY KEY, at timestamptz, kind text)");
  }

  @AfterAll
  static void close() {
    dataSource.close();
  }

  @Test
  void anInstantAnEnumAndAUuidAreBoundAndReadBackAsThemselves() {
    UUID id = UUID.randomUUID();
    Instant at = Instant.parse("2026-12-05T06:30:00.123456Z");

    assertThat(
            db.update(
                "INSERT INTO captchajobs.db_test VALUES (?, ?, ?)", id, at, ErrorClass.THREADS))
        .isEqualTo(1);

    assertThat(
            db.queryOne(
                "SELECT id, at, kind FROM captchajobs.db_test WHERE id = ?",
                rs -> Db.uuid(rs, "id") + " " + Db.instant(rs, "at") + " " + rs.getString("kind"),
                id))
        .hasValue(id + " " + at + " THREADS");
    assertThat(
            db.queryOne(
                "SELECT at FROM captchajobs.db_test WHERE id = ?", rs -> 1, UUID.randomUUID()))
        .isEmpty();
  }

  @Test
  void aNullColumnReadsAsNoValueRatherThanFailing() {
    UUID id = UUID.randomUUID();
    db.update("INSERT INTO captchajobs.db_test (id) VALUES (?)", id);

    assertThat(
            db.queryOne(
                "SELECT at FROM captchajobs.db_test WHERE id = ?", rs -> Db.instant(rs, "at"), id))
        .isEmpty();
  }

  @Test
  void aFailedStatementNamesItsFirstLineAndStateButNoBoundValue() {
    assertThatThrownBy(
            () ->
                db.update(
                    "INSERT INTO captchajobs.db_test (id, kind)\nVALUES (?::uuid, ?)",
                    "not-a-uuid-secret-value",
                    "x"))
        .isInstanceOf(Db.EngineDataException.class)
        .hasMessage("SQL failed (22P02): INSERT INTO captchajobs.db_test (id, kind) ...")
        .message()
        .doesNotContain("secret-value");
  }

  @Test
  void anExclusivePassDoesNotRunWhileAnotherSessionHoldsItsLockAndRunsAfterwards() {
    AtomicReference<Boolean> innerRan = new AtomicReference<>();

    boolean outer =
        db.exclusively(
            "db-test-pass", () -> innerRan.set(db.exclusively("db-test-pass", () -> {})));

    assertThat(outer).isTrue();
    assertThat(innerRan.get()).isFalse(); // another connection, so another session: refused
    assertThat(db.exclusively("db-test-pass", () -> {})).isTrue(); // released with the transaction
    assertThat(db.exclusively("another-pass", () -> {})).isTrue();
  }

  @Test
  void workUnderALockIsCommittedTogetherOrRolledBackTogether() {
    UUID kept = UUID.randomUUID();
    UUID dropped = UUID.randomUUID();

    int inserted =
        db.underLock(
            "db-test-cap",
            tx ->
                tx.query(
                        "INSERT INTO captchajobs.db_test (id) VALUES (?) RETURNING 1",
                        rs -> rs.getInt(1),
                        kept)
                    .size());
    assertThatThrownBy(
            () ->
                db.underLock(
                    "db-test-cap",
                    tx -> {
                      tx.query(
                          "INSERT INTO captchajobs.db_test (id) VALUES (?) RETURNING 1",
                          rs -> rs.getInt(1),
                          dropped);
                      throw new IllegalStateException("over the cap");
                    }))
        .hasMessage("over the cap");

    assertThat(inserted).isEqualTo(1);
    assertThat(db.query("SELECT 1 FROM captchajobs.db_test WHERE id = ?", rs -> 1, kept))
        .hasSize(1);
    assertThat(db.query("SELECT 1 FROM captchajobs.db_test WHERE id = ?", rs -> 1, dropped))
        .isEmpty();
  }

  @Test
  void aStatementPastTheQueryTimeoutIsCancelledByPostgresqlAndSaidSo() {
    Db bounded = new Db(dataSource, schema, Duration.ofSeconds(1));

    assertThatThrownBy(() -> bounded.query("SELECT pg_sleep(5)", rs -> 1))
        .satisfies(e -> assertThat(Db.isCancelled(e)).isTrue());
    assertThat(Db.isCancelled(new IllegalStateException("other"))).isFalse();
  }
}
