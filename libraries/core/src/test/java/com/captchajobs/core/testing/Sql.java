package com.captchajobs.core.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Plain JDBC for tests that read and change rows directly, with the few calls they need (named as
 * Spring's {@code JdbcTemplate} names them, so that a test reads the same on a Spring node and on a
 * plain-Java one). Each call takes a connection of the data source and gives it back.
 */
public final class Sql {

  private final DataSource dataSource;

  public Sql(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The one value of the one row {@code sql} returns (null for SQL NULL). */
  public <T> T queryForObject(String sql, Class<T> type, Object... args) {
    List<T> values = queryForList(sql, type, args);
    if (values.size() != 1) {
      throw new IllegalStateException("expected one row, got " + values.size() + " from: " + sql);
    }
    return values.get(0);
  }

  /** The first column of every row. */
  public <T> List<T> queryForList(String sql, Class<T> type, Object... args) {
    return query(
        sql,
        rs -> {
          List<T> values = new ArrayList<>();
          while (rs.next()) {
            values.add(column(rs, type));
          }
          return values;
        },
        args);
  }

  /** The one row {@code sql} returns, by column label. */
  public Map<String, Object> queryForMap(String sql, Object... args) {
    return query(
        sql,
        rs -> {
          if (!rs.next()) {
            throw new IllegalStateException("expected one row, got none from: " + sql);
          }
          ResultSetMetaData meta = rs.getMetaData();
          Map<String, Object> row = new LinkedHashMap<>();
          for (int i = 1; i <= meta.getColumnCount(); i++) {
            row.put(meta.getColumnLabel(i), rs.getObject(i));
          }
          if (rs.next()) {
            throw new IllegalStateException("expected one row, got more from: " + sql);
          }
          return row;
        },
        args);
  }

  /** Runs an INSERT, UPDATE or DELETE (or other statement with arguments): the rows it changed. */
  public int update(String sql, Object... args) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, args);
      return ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage() + " in: " + sql, e);
    }
  }

  /** Runs a statement without arguments (DDL, ANALYZE, ...). */
  public void execute(String sql) {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage() + " in: " + sql, e);
    }
  }

  private interface Rows<R> {
    R read(ResultSet rs) throws SQLException;
  }

  private <R> R query(String sql, Rows<R> rows, Object... args) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        return rows.read(rs);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage() + " in: " + sql, e);
    }
  }

  private static void bind(PreparedStatement ps, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      ps.setObject(i + 1, args[i]);
    }
  }

  private static <T> T column(ResultSet rs, Class<T> type) throws SQLException {
    Object value = rs.getObject(1);
    if (value == null) {
      return null;
    }
    Object converted;
    if (type == String.class) {
      converted = rs.getString(1);
    } else if (type == Integer.class) {
      converted = ((Number) value).intValue();
    } else if (type == Long.class) {
      converted = ((Number) value).longValue();
    } else if (type == Double.class) {
      converted = ((Number) value).doubleValue();
    } else if (type == UUID.class) {
      converted = value instanceof UUID u ? u : UUID.fromString(value.toString().trim());
    } else if (type == Timestamp.class) {
      converted = rs.getTimestamp(1);
    } else if (type == Instant.class) {
      converted = rs.getTimestamp(1).toInstant();
    } else {
      converted = value;
    }
    return type.cast(converted);
  }
}
