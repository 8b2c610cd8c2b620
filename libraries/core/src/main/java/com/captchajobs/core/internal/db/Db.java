package com.captchajobs.core.internal.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/** A few lines of plain JDBC so that the engine needs no framework: one statement, autocommit. */
public final class Db {

  @FunctionalInterface
  public interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  private final DataSource dataSource;
  private final Schema schema;
  private final int queryTimeoutSeconds;

  public Db(DataSource dataSource, Schema schema) {
    this(dataSource, schema, null);
  }

  /**
   * Statements that PostgreSQL cancels past {@code queryTimeout} (whole seconds, at least one;
   * null: none), failing with SQL state {@code 57014} ({@link #isCancelled}). The driver asks for
   * the cancel, so the session's own settings are never changed on a pooled connection.
   */
  public Db(DataSource dataSource, Schema schema, java.time.Duration queryTimeout) {
    this.dataSource = dataSource;
    this.schema = schema;
    this.queryTimeoutSeconds =
        queryTimeout == null ? 0 : (int) Math.max(1, queryTimeout.toSeconds());
  }

  /** Whether a failure is a statement PostgreSQL cancelled (a query timeout). */
  public static boolean isCancelled(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && "57014".equals(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  public int update(String sql, Object... args) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = prepare(c, sql, args)) {
      return ps.executeUpdate();
    } catch (SQLException e) {
      throw new EngineDataException(sql, e);
    }
  }

  public <T> List<T> query(String sql, RowMapper<T> mapper, Object... args) {
    try (Connection c = dataSource.getConnection()) {
      return query(c, sql, mapper, args);
    } catch (SQLException e) {
      throw new EngineDataException(sql, e);
    }
  }

  private <T> List<T> query(Connection c, String sql, RowMapper<T> mapper, Object... args) {
    try (PreparedStatement ps = prepare(c, sql, args)) {
      return rows(ps, mapper);
    } catch (SQLException e) {
      throw new EngineDataException(sql, e);
    }
  }

  /**
   * The rows of a query on a connection the caller holds, as written (no schema substitution, no
   * timeout); its SQLException is the caller's.
   */
  public static <T> List<T> rows(Connection c, String sql, RowMapper<T> mapper, Object... args)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, args);
      return rows(ps, mapper);
    }
  }

  private static <T> List<T> rows(PreparedStatement ps, RowMapper<T> mapper) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      List<T> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(mapper.map(rs));
      }
      return rows;
    }
  }

  /** The first row's value; empty when there is no row or the value is null (a NULL column). */
  public <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... args) {
    List<T> rows = query(sql, mapper, args);
    return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(rows.get(0));
  }

  /**
   * Runs {@code body} while this connection's transaction holds the advisory lock named {@code
   * name} (per schema), or does nothing when another session holds it. The lock ends with the
   * transaction, so a node that dies mid-pass releases it with its connection.
   *
   * @return whether the lock was taken and the body ran
   */
  public boolean exclusively(String name, Runnable body) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        boolean locked =
            query(c, "SELECT pg_try_advisory_xact_lock(?)", rs -> rs.getBoolean(1), lockKey(name))
                .get(0);
        if (locked) {
          body.run();
        }
        return locked;
      } finally {
        c.rollback(); // ends the transaction and with it the lock
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new EngineDataException("SELECT pg_try_advisory_xact_lock(?)", e);
    }
  }

  /** Statements run on the connection of {@link #underLock}, in its transaction. */
  public interface Tx {
    <T> List<T> query(String sql, RowMapper<T> mapper, Object... args);
  }

  /**
   * Runs {@code body} in one transaction that first waits for the advisory lock named {@code name}
   * (per schema); the lock ends with the transaction. Each statement of the body sees what the
   * lock's previous holders committed (read committed takes a snapshot per statement), so a count
   * followed by an insert under the lock cannot be overtaken by another holder of the same lock.
   */
  public <T> T underLock(String name, java.util.function.Function<Tx, T> body) {
    long key = lockKey(name);
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
          ps.setLong(1, key);
          ps.execute();
        }
        T result =
            body.apply(
                new Tx() {
                  @Override
                  public <R> List<R> query(String sql, RowMapper<R> mapper, Object... args) {
                    return Db.this.query(c, sql, mapper, args);
                  }
                });
        c.commit();
        return result;
      } catch (RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new EngineDataException("SELECT pg_advisory_xact_lock(?)", e);
    }
  }

  private long lockKey(String name) {
    return UUID.nameUUIDFromBytes(
            (schema.name() + ":" + name).getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .getMostSignificantBits();
  }

  private PreparedStatement prepare(Connection c, String sql, Object... args) throws SQLException {
    PreparedStatement ps = c.prepareStatement(schema.sql(sql));
    if (queryTimeoutSeconds > 0) {
      ps.setQueryTimeout(queryTimeoutSeconds);
    }
    bind(ps, args);
    return ps;
  }

  private static void bind(PreparedStatement ps, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      Object arg = args[i];
      if (arg instanceof Instant instant) {
        ps.setTimestamp(i + 1, Timestamp.from(instant));
      } else if (arg instanceof Enum<?> e) {
        ps.setString(i + 1, e.name());
      } else {
        ps.setObject(i + 1, arg);
      }
    }
  }

  public static Instant instant(ResultSet rs, String column) throws SQLException {
    Timestamp ts = rs.getTimestamp(column);
    return ts == null ? null : ts.toInstant();
  }

  public static UUID uuid(ResultSet rs, String column) throws SQLException {
    return rs.getObject(column, UUID.class);
  }

  /** A database error; the message names the statement, never a value bound to it. */
  static final class EngineDataException extends RuntimeException {
    EngineDataException(String sql, SQLException cause) {
      super("SQL failed (" + cause.getSQLState() + "): " + firstLine(sql), cause);
    }

    private static String firstLine(String sql) {
      String trimmed = sql.strip();
      int nl = trimmed.indexOf('\n');
      return nl < 0 ? trimmed : trimmed.substring(0, nl) + " ...";
    }
  }
}
