package com.captchajobs.core.internal.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The PostgreSQL schema that holds every CaptchaJobs table: ours (solve, gate, breaker, polls,
 * hand-offs, Flyway history) and our own JobRunr instances' ({@code cj_jobrunr_*}, {@code
 * cj_webhook_jobrunr_*}). A schema of our own keeps a host application's {@code public} schema, its
 * Flyway history and its JobRunr tables untouched, whichever starts first.
 *
 * <p>SQL in the engine is written against the default schema {@value #DEFAULT}; another schema is
 * substituted once per statement text.
 */
public final class Schema {

  public static final String DEFAULT = "captchajobs";

  /** Flyway's history table of our migrations, inside the schema. */
  public static final String HISTORY_TABLE = "schema_history";

  private static final String LOCATION = "classpath:db/captchajobs";
  private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
  private static final Pattern DEFAULT_QUALIFIER = Pattern.compile("\\bcaptchajobs\\.");

  private final String name;
  private final Map<String, String> statements = new ConcurrentHashMap<>();

  private Schema(String name) {
    this.name = name;
  }

  /**
   * @throws IllegalArgumentException naming {@code captchajobs.schema} when the name is not a plain
   *     lower-case PostgreSQL identifier
   */
  public static Schema named(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "captchajobs.schema must be a lower-case PostgreSQL identifier (letters, digits,"
              + " underscores; at most 63), was '%s'".formatted(name));
    }
    return new Schema(name);
  }

  public static Schema defaultSchema() {
    return new Schema(DEFAULT);
  }

  public String name() {
    return name;
  }

  /** A statement written against {@value #DEFAULT}, for this schema. */
  public String sql(String statement) {
    if (DEFAULT.equals(name)) {
      return statement;
    }
    return statements.computeIfAbsent(
        statement, s -> DEFAULT_QUALIFIER.matcher(s).replaceAll(name + "."));
  }

  /**
   * Creates the schema when missing and applies our migrations in it, under our own history table.
   *
   * @throws SchemaNotCreatableException when the schema is missing and the database user may not
   *     create it
   */
  public void migrate(DataSource dataSource) {
    requireCreatable(dataSource);
    requireOutsideSearchPath(dataSource);
    Flyway.configure()
        .dataSource(dataSource)
        .schemas(name)
        .defaultSchema(name)
        .createSchemas(true)
        .locations(LOCATION)
        .table(HISTORY_TABLE)
        .load()
        .migrate();
  }

  private void requireCreatable(DataSource dataSource) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = ?),"
                    + " has_database_privilege(current_database(), 'CREATE'), current_user")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1) && !rs.getBoolean(2)) {
          throw new SchemaNotCreatableException(name, rs.getString(3));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Could not check schema '" + name + "': " + e.getMessage(), e);
    }
  }

  /**
   * Our SQL names every table with its schema, but a host's does not: if the connection's {@code
   * search_path} led to our schema (as PostgreSQL's default {@code "$user", public} does for a
   * database user named like it), a host's Flyway history and JobRunr tables would land in ours.
   * Names are compared as PostgreSQL resolves them ({@link SearchPath}): {@code CAPTCHAJOBS}
   * reaches {@code captchajobs}, {@code "CAPTCHAJOBS"} does not. CaptchaJobs' own nodes pin the
   * search_path of their pool, so this refuses only connections someone else configured, such as a
   * host's.
   */
  private void requireOutsideSearchPath(DataSource dataSource) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT current_setting('search_path'), current_user");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      String searchPath = rs.getString(1);
      String user = rs.getString(2);
      SearchPath.Entry reaching = SearchPath.reaching(searchPath, user, name);
      if (reaching != null) {
        throw new SearchPathReachesSchemaException(name, searchPath, user, reaching.viaUser());
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Could not read the search_path of schema '" + name + "': " + e.getMessage(), e);
    }
  }

  /** The connection's search_path resolves unqualified names into our schema. */
  public static final class SearchPathReachesSchemaException extends IllegalStateException {
    SearchPathReachesSchemaException(
        String schema, String searchPath, String user, boolean viaUser) {
      super(
          ("captchajobs.schema: the database connection's search_path (%s) resolves unqualified"
                  + " table names into schema '%s'%s, so an application's own tables (its Flyway"
                  + " history, its JobRunr) would land in CaptchaJobs' schema. Fix: pin the"
                  + " search_path of the connections given to CaptchaJobs to schemas other than"
                  + " '%2$s', for example with currentSchema=public in the JDBC URL (as the app,"
                  + " worker and dashboard nodes do on their own pool) or with ALTER ROLE %s SET"
                  + " search_path = public; or set captchajobs.schema to another name%s.")
              .formatted(
                  searchPath,
                  schema,
                  viaUser ? " because the database user is named '" + user + "' like it" : "",
                  user,
                  viaUser ? "; or connect as a database user not named '" + schema + "'" : ""));
    }
  }

  /** The schema does not exist and the database user has no right to create it. */
  public static final class SchemaNotCreatableException extends IllegalStateException {
    SchemaNotCreatableException(String schema, String user) {
      super(
          ("captchajobs.schema: schema '%1$s' does not exist and database user '%2$s' may not"
                  + " create it (no CREATE privilege on the database). Ask an administrator to run"
                  + " CREATE SCHEMA %1$s AUTHORIZATION %2$s, or set captchajobs.schema to a schema"
                  + " this user owns.")
              .formatted(schema, user));
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
