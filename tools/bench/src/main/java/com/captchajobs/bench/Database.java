package com.captchajobs.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The run's PostgreSQL: an embedded one (zonky binaries, a fresh data directory per run, kept
 * between a stop and a start so that it can be restarted in place), or an external one given by
 * {@code --jdbc-url}, which cannot be restarted by the bench. In chaos mode the nodes reach the
 * embedded one through a {@link DatabaseProxy} (for the database outage); the bench's own reads
 * always go directly.
 */
public final class Database implements AutoCloseable {

  private final String externalUrl;
  private final Path dataDir;
  private EmbeddedPostgres postgres;
  private int port;
  private DatabaseProxy proxy;

  private Database(String externalUrl, Path dataDir) {
    this.externalUrl = externalUrl;
    this.dataDir = dataDir;
  }

  /** Starts an embedded PostgreSQL on a free port with a new database {@code captchajobs}. */
  public static Database embedded() {
    return embedded(false);
  }

  /**
   * Starts an embedded PostgreSQL on a free port with a new database {@code captchajobs}; with
   * {@code proxied}, the nodes' URL ({@link #nodeJdbcUrl()}) goes through a {@link DatabaseProxy}.
   */
  public static Database embedded(boolean proxied) {
    try {
      Database db = new Database(null, Files.createTempDirectory("captchajobs-bench-pg"));
      db.startEmbedded(0);
      try (Connection c = db.postgres.getPostgresDatabase().getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE captchajobs");
      }
      if (proxied) {
        db.proxy = new DatabaseProxy(db.port);
      }
      return db;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the bench database", e);
    }
  }

  public static Database external(String jdbcUrl) {
    return new Database(jdbcUrl, null);
  }

  private void startEmbedded(int wantedPort) throws IOException {
    EmbeddedPostgres.Builder builder =
        EmbeddedPostgres.builder()
            .setDataDirectory(dataDir)
            .setCleanDataDirectory(false)
            .setServerConfig("max_connections", "300")
            // statements per solve (see the figures in tools/bench/README.md)
            .setServerConfig("shared_preload_libraries", "pg_stat_statements");
    if (wantedPort > 0) {
      builder.setPort(wantedPort);
    }
    postgres = builder.start();
    port = postgres.getPort();
  }

  public String jdbcUrl() {
    return externalUrl != null
        ? externalUrl
        : "jdbc:postgresql://127.0.0.1:" + port + "/captchajobs?user=postgres";
  }

  /** The URL the nodes use: through the proxy when there is one, else {@link #jdbcUrl()}. */
  public String nodeJdbcUrl() {
    return proxy == null
        ? jdbcUrl()
        : "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/captchajobs?user=postgres";
  }

  public boolean restartable() {
    return externalUrl == null;
  }

  /** Whether {@link #outage} can cut the nodes off (they go through the proxy). */
  public boolean canCutOff() {
    return proxy != null;
  }

  /**
   * Starts ({@code true}) or ends a database outage as the nodes see it: their connections are
   * reset and new ones refused; the server itself keeps running and the bench still reads it.
   */
  public void outage(boolean down) {
    if (proxy == null) {
      throw new IllegalStateException("the nodes do not go through the bench's proxy");
    }
    if (down) {
      proxy.down();
    } else {
      proxy.up();
    }
  }

  /** Nodes' connections open through the proxy now, or -1 without one. */
  public int nodeConnections() {
    return proxy == null ? -1 : proxy.open();
  }

  /** Stops the embedded server (fast shutdown) and starts it again on the same port and data. */
  public synchronized void restart() {
    if (!restartable()) {
      throw new IllegalStateException(
          "an external PostgreSQL (--jdbc-url) is not restarted by the bench");
    }
    try {
      postgres.close();
      startEmbedded(port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot restart the embedded PostgreSQL", e);
    }
  }

  /** The postmaster's pid (its backends are its descendants), or -1 when external. */
  public long pid() {
    if (postgres == null) {
      return -1;
    }
    try {
      return Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl());
  }

  /** Marks the bench's own statements, which the statement count leaves out. */
  static final String BENCH_TAG = "/* bench */ ";

  /**
   * Zeroes PostgreSQL's statement statistics ({@code pg_stat_statements}); false when the extension
   * cannot be had (an external server without it in {@code shared_preload_libraries}).
   */
  public boolean resetStatements() {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(BENCH_TAG + "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      s.execute(BENCH_TAG + "SELECT pg_stat_statements_reset()");
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  /**
   * Statements executed in the run's database since {@link #resetStatements()}, the bench's own
   * left out; -1 when not measurable.
   */
  public long statements() {
    try (Connection c = connect();
        Statement s = c.createStatement();
        var rs =
            s.executeQuery(
                BENCH_TAG
                    + "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements"
                    + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
                    + " AND query NOT LIKE '/* bench */%'")) {
      return rs.next() ? rs.getLong(1) : -1;
    } catch (SQLException e) {
      return -1;
    }
  }

  /** The statements executed most often since the reset, for the run's log: calls, then text. */
  public java.util.List<String> topStatements(int n) {
    java.util.List<String> out = new java.util.ArrayList<>();
    try (Connection c = connect();
        Statement s = c.createStatement();
        var rs =
            s.executeQuery(
                BENCH_TAG
                    + "SELECT calls, round(total_exec_time::numeric, 0), left(regexp_replace(query, '\\s+', ' ', 'g'), 160)"
                    + " FROM pg_stat_statements"
                    + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
                    + " AND query NOT LIKE '/* bench */%' ORDER BY calls DESC LIMIT "
                    + n)) {
      while (rs.next()) {
        out.add(rs.getLong(1) + " calls, " + rs.getString(2) + " ms: " + rs.getString(3));
      }
    } catch (SQLException e) {
      out.add("n/a: " + e.getMessage());
    }
    return out;
  }

  /** A setting such as fsync or synchronous_commit, for the report's caveats. */
  public String setting(String name) {
    try (Connection c = connect();
        Statement s = c.createStatement();
        var rs = s.executeQuery("SHOW " + name)) {
      return rs.next() ? rs.getString(1) : "?";
    } catch (SQLException e) {
      return "?";
    }
  }

  @Override
  public synchronized void close() {
    if (proxy != null) {
      proxy.close();
    }
    if (postgres == null) {
      return;
    }
    try {
      postgres.close();
    } catch (IOException ignored) {
      // the run is over
    }
    postgres = null;
    try (Stream<Path> files = Files.walk(dataDir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temp directory left behind
    }
  }
}
