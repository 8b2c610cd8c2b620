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
 * {@code --jdbc-url}, which cannot be restarted by the bench.
 */
public final class Database implements AutoCloseable {

  private final String externalUrl;
  private final Path dataDir;
  private EmbeddedPostgres postgres;
  private int port;

  private Database(String externalUrl, Path dataDir) {
    this.externalUrl = externalUrl;
    this.dataDir = dataDir;
  }

  /** Starts an embedded PostgreSQL on a free port with a new database {@code captchajobs}. */
  public static Database embedded() {
    try {
      Database db = new Database(null, Files.createTempDirectory("captchajobs-bench-pg"));
      db.startEmbedded(0);
      try (Connection c = db.postgres.getPostgresDatabase().getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE captchajobs");
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
            .setServerConfig("max_connections", "300");
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

  public boolean restartable() {
    return externalUrl == null;
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
