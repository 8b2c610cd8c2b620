package com.captchajobs.core.internal.gate;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.Sql;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/** A fresh migrated database for the gate's tests, and the waiting solves they hand slots to. */
public final class GateTestDatabase {

  private GateTestDatabase() {}

  /**
   * A pool on a fresh database with our schema, and the JobRunr servers' table the gate's reclaim
   * reads (no JobRunr here).
   */
  public static HikariDataSource fresh() {
    HikariDataSource dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(4);
    Schema.defaultSchema().migrate(dataSource);
    new Sql(dataSource)
        .execute(
            "CREATE TABLE captchajobs.cj_jobrunr_backgroundjobservers (id char(36) PRIMARY KEY)");
    return dataSource;
  }

  /**
   * The gate of node "node-a" on {@code dataSource}: the primary ("primary-fp") with {@code
   * primarySlots} slots, leases of three minutes, and {@code others} beside it.
   */
  public static FleetGate gate(
      DataSource dataSource, int primarySlots, ProviderLanes.Lane... others) {
    FleetGate gate =
        new FleetGate(
            dataSource,
            Schema.defaultSchema(),
            Duration.ofMinutes(3),
            "node-a",
            UUID::randomUUID,
            List.of(others),
            "primary-fp");
    gate.resize(primarySlots);
    return gate;
  }

  /** Stores a TURNSTILE solve waiting for a thread, later in the queue than any stored before. */
  static UUID waitingSolve(Sql jdbc, String keyPrefix) {
    UUID id = UUID.randomUUID();
    jdbc.update(
        "INSERT INTO captchajobs.solve (id, business_key, type, params, payload_hash, priority,"
            + " status, waiting_since, created_at) VALUES (?, ?, 'TURNSTILE', '{}'::jsonb, 'x', 0,"
            + " 'WAITING_FOR_THREAD', now(), clock_timestamp())",
        id,
        keyPrefix + id);
    return id;
  }
}
