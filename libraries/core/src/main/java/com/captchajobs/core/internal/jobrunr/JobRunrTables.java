package com.captchajobs.core.internal.jobrunr;

import com.captchajobs.core.internal.db.Db;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.jobrunr.storage.sql.common.DatabaseMigrationsProvider;
import org.jobrunr.storage.sql.common.migrations.SqlMigration;
import org.jobrunr.storage.sql.common.tables.AnsiDatabaseTablePrefixStatementUpdater;
import org.jobrunr.storage.sql.common.tables.TablePrefixStatementUpdater;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates and upgrades the tables of one of our JobRunr storages from JobRunr's own PostgreSQL
 * scripts, under names that no host JobRunr can take for its own.
 *
 * <p>Why not JobRunr's own table creator: it records its scripts in {@code
 * <prefix>jobrunr_migrations}, and a JobRunr without a table prefix decides whether it ever ran on
 * a database by looking, in <em>every</em> schema, for a table whose name <em>contains</em> {@code
 * jobrunr_migrations}. Finding ours, a host's JobRunr would skip creating its own tables and then
 * fail on its unqualified {@code jobrunr_migrations}. So we run the same scripts (those of the
 * JobRunr on the class path, with JobRunr's own prefix rewriting) and record them in {@code
 * <prefix>jobrunr_script_history}, a name that lookup never matches.
 *
 * <p>Tables of the earlier layout ({@code <schema>.jobrunr_*} and {@code
 * <schema>.webhook_jobrunr_*}, with JobRunr's {@code jobrunr_migrations}) are renamed to the new
 * names once, jobs and all, and their script record moves into the new history table. Everything
 * runs in one transaction under an advisory lock, so nodes starting together do it once.
 */
public final class JobRunrTables {

  /** The history table of applied scripts, after the prefix. */
  static final String HISTORY = "jobrunr_script_history";

  private static final Logger log = LoggerFactory.getLogger(JobRunrTables.class);
  private static final String CREATES_JOBRUNRS_OWN_HISTORY = "v000__create_migrations_table.sql";
  private static final String EMPTY_SCRIPT = "-- Empty migration";

  private final String schema;
  private final String namePrefix;
  private final String legacyNamePrefix;

  /**
   * @param schema the schema that holds the tables
   * @param namePrefix what comes before {@code jobrunr_} in every table name, e.g. {@code cj_}
   * @param legacyNamePrefix the same for the earlier layout, e.g. the empty string
   */
  public JobRunrTables(String schema, String namePrefix, String legacyNamePrefix) {
    this.schema = schema;
    this.namePrefix = namePrefix;
    this.legacyNamePrefix = legacyNamePrefix;
  }

  /** JobRunr's table prefix for these tables: {@code <schema>.<namePrefix>}. */
  public String tablePrefix() {
    return schema + "." + namePrefix;
  }

  /** Moves tables of the earlier layout forward, then applies every script not yet applied. */
  public void migrate(DataSource dataSource) {
    inTransaction(
        dataSource,
        c -> {
          moveEarlierLayout(c);
          createHistory(c);
          applyScripts(c);
        });
  }

  /**
   * Only moves tables of the earlier layout forward, if there are any: a node that does not use
   * these tables still must not leave a name behind that a host's JobRunr would take for its own.
   */
  public void moveEarlierLayout(DataSource dataSource) {
    inTransaction(dataSource, this::moveEarlierLayout);
  }

  private interface InTransaction {
    void run(Connection c) throws SQLException;
  }

  private void inTransaction(DataSource dataSource, InTransaction step) {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        lock(c);
        step.run(c);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      String why = "Could not create or upgrade CaptchaJobs' JobRunr tables %sjobrunr_*: %s";
      throw new IllegalStateException(why.formatted(tablePrefix(), e.getMessage()), e);
    }
  }

  private void lock(Connection c) throws SQLException {
    String key = "captchajobs-jobrunr-tables:" + schema;
    Db.rows(c, "SELECT pg_advisory_xact_lock(hashtext(?))", rs -> 0, key);
  }

  private void moveEarlierLayout(Connection c) throws SQLException {
    String earlier = legacyNamePrefix + "jobrunr_";
    if (!exists(c, earlier + "migrations")) {
      return;
    }
    if (exists(c, namePrefix + "jobrunr_jobs")) {
      log.warn(
          "{}.{}* exist beside {}jobrunr_*: a node of an earlier CaptchaJobs version created them"
              + " again after the move. Stop nodes of earlier versions; these tables are not used.",
          schema,
          earlier,
          tablePrefix());
      return;
    }
    List<String[]> renames =
        Db.rows(
            c,
            "SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid ="
                + " c.relnamespace WHERE n.nspname = ? AND c.relkind IN ('r', 'v', 'i', 'S', 'm')"
                + " AND starts_with(c.relname, ?)",
            rs -> new String[] {rs.getString(1), kindOf(rs.getString(2))},
            schema,
            earlier);
    try (Statement st = c.createStatement()) {
      for (String[] r : renames) {
        String renamed = quoted(namePrefix + r[0].substring(legacyNamePrefix.length()));
        st.execute("ALTER %s %s RENAME TO %s".formatted(r[1], table(r[0]), renamed));
      }
      createHistory(c);
      String migrations = table(namePrefix + "jobrunr_migrations");
      st.execute(
          ("INSERT INTO %s (script) SELECT DISTINCT script FROM %s"
                  + " WHERE script LIKE 'v%%.sql' AND script <> '%s' ON CONFLICT DO NOTHING")
              .formatted(history(), migrations, CREATES_JOBRUNRS_OWN_HISTORY));
      st.execute("DROP TABLE " + migrations);
    }
    log.info(
        "Moved {} relations {}.{}* to {}jobrunr_*, so that no host JobRunr takes them for its own",
        renames.size(),
        schema,
        earlier,
        tablePrefix());
  }

  private static String kindOf(String relkind) {
    return switch (relkind) {
      case "v" -> "VIEW";
      case "i" -> "INDEX";
      case "S" -> "SEQUENCE";
      case "m" -> "MATERIALIZED VIEW";
      default -> "TABLE";
    };
  }

  private void createHistory(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(
          ("CREATE TABLE IF NOT EXISTS %s (script varchar(128) PRIMARY KEY,"
                  + " installed_on timestamptz NOT NULL DEFAULT now())")
              .formatted(history()));
    }
  }

  private void applyScripts(Connection c) throws SQLException {
    Set<String> applied =
        new HashSet<>(Db.rows(c, "SELECT script FROM " + history(), rs -> rs.getString(1)));
    TablePrefixStatementUpdater names = new AnsiDatabaseTablePrefixStatementUpdater(tablePrefix());
    List<SqlMigration> scripts =
        new DatabaseMigrationsProvider(PostgresStorageProvider.class)
            .getMigrations()
            .filter(m -> m.getFileName().endsWith(".sql"))
            .filter(m -> !m.getFileName().equals(CREATES_JOBRUNRS_OWN_HISTORY))
            .filter(m -> !applied.contains(m.getFileName()))
            .sorted(Comparator.comparing(SqlMigration::getFileName))
            .toList();
    for (SqlMigration script : scripts) {
      String sql = read(script);
      if (!sql.startsWith(EMPTY_SCRIPT)) {
        try (Statement st = c.createStatement()) {
          for (String statement : sql.split(";")) {
            if (!statement.isBlank()) {
              st.execute(names.updateStatement(statement).trim());
            }
          }
        }
      }
      String record = "INSERT INTO " + history() + " (script) VALUES (?) RETURNING script";
      Db.rows(c, record, rs -> 0, script.getFileName());
    }
    if (!scripts.isEmpty()) {
      log.info("Applied {} JobRunr scripts to {}jobrunr_*", scripts.size(), tablePrefix());
    }
  }

  private static String read(SqlMigration script) {
    try {
      return script.getMigrationSql();
    } catch (IOException e) {
      throw new IllegalStateException("Could not read JobRunr's " + script.getFileName(), e);
    }
  }

  private boolean exists(Connection c, String table) throws SQLException {
    String sql = "SELECT to_regclass(?) IS NOT NULL";
    return Db.rows(c, sql, rs -> rs.getBoolean(1), table(table)).get(0);
  }

  private String history() {
    return table(namePrefix + HISTORY);
  }

  private String table(String name) {
    return quoted(schema) + "." + quoted(name);
  }

  private static String quoted(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
