package com.captchajobs.core.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real PostgreSQL per test JVM (zonky's embedded binaries, started as whatever user runs the
 * tests, root included), with a fresh database per caller so that tests never share state.
 */
public final class EmbeddedPostgresSupport {

  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static EmbeddedPostgres postgres;

  private EmbeddedPostgresSupport() {}

  public static synchronized EmbeddedPostgres server() {
    if (postgres == null) {
      Path data;
      try {
        data = Files.createTempDirectory("captchajobs-test-pg");
        postgres =
            EmbeddedPostgres.builder()
                .setDataDirectory(data)
                // Deleting the data directory (every test database's files, tens of thousands)
                // took longer than surefire waits for a JVM to exit under a loaded build, so the
                // JVM stops the server and leaves the deletion to a process that outlives it.
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                // A test database need not survive a crash of the machine: no fsync of the WAL
                // or of the data files (the checkpoints, the shutdown's included, write to the
                // file cache only), and no full page images in the WAL after each checkpoint.
                // What a test sees over a connection is the same; a PostgreSQL killed or cut
                // off keeps what it wrote, only an operating-system crash would not. zonky
                // already turns synchronous_commit off.
                .setServerConfig("fsync", "off")
                .setServerConfig("full_page_writes", "off")
                .start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      postgres.close();
                      new ProcessBuilder("rm", "-rf", data.toString()).start();
                    } catch (IOException ignored) {
                      // the JVM is going away; the operating system's temp cleaning remains
                    }
                  }));
    }
    return postgres;
  }

  /** Creates an empty database and returns its JDBC URL (user postgres, no password). */
  public static String newDatabase() {
    String name = "cj_test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
    try (Connection c = server().getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return "jdbc:postgresql://localhost:" + server().getPort() + "/" + name + "?user=postgres";
  }
}
