package com.captchajobs.worker.engine;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Creates and upgrades our tables beside JobRunr's, with Flyway under its own history table so
 * that an application's own migrations are left alone.
 */
public final class Schema {

  public static final String LOCATION = "classpath:db/captchajobs";
  public static final String HISTORY_TABLE = "captchajobs_schema_history";

  private Schema() {}

  public static void migrate(DataSource dataSource) {
    Flyway.configure()
        .dataSource(dataSource)
        .locations(LOCATION)
        .table(HISTORY_TABLE)
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .load()
        .migrate();
  }
}
