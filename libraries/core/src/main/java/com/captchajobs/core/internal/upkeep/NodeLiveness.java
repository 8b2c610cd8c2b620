package com.captchajobs.core.internal.upkeep;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.LivenessLock;
import com.captchajobs.core.internal.gate.FleetGate;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.internal.time.Timers;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This worker node's sign of life (see "Dead nodes" in docs/architecture.md): a session-level
 * advisory lock, keyed by the node's JobRunr server id, held on a connection of its own for the
 * node's whole life. PostgreSQL frees it the moment that connection's backend ends: at once when
 * the process dies (kill -9: the kernel closes its sockets), within a few seconds when its host is
 * lost (server-side TCP keepalive, set on the session). A node that is only slow (a GC pause, a
 * slow query) keeps it: the kernel answers keepalives, not the JVM. The repair pass of any node
 * reads {@code pg_locks} to tell live servers from dead ones ({@link FleetGate#liveServers}).
 *
 * <p>The connection is checked every {@link #CHECK_EVERY}; a broken one is replaced and the lock
 * taken again.
 */
public final class NodeLiveness implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(NodeLiveness.class);

  static final Duration CHECK_EVERY = Duration.ofSeconds(1);

  private final SolveNotifications.ConnectionFactory connections;
  private final Clock clock;
  private final ScheduledExecutorService checker;
  private volatile UUID serverId;
  private volatile Connection connection;
  private volatile Instant heldSince;
  private volatile boolean retaken;
  private volatile Instant lostAt;
  private volatile Consumer<Instant> onRetaken = lost -> {};

  /** {@code connections} opens the lock's connection: one of its own, not a pooled one. */
  public NodeLiveness(SolveNotifications.ConnectionFactory connections, Clock clock) {
    this.connections = connections;
    this.clock = clock;
    this.checker = Timers.daemon("captchajobs-liveness");
  }

  /**
   * Takes the lock for {@code serverId} and keeps it (checked every second) until closed; after
   * each check runs {@code observer} (which servers hold their locks), so that a node sees its
   * peers live from its first second on.
   */
  public NodeLiveness hold(UUID serverId, Runnable observer) {
    this.serverId = serverId;
    Runnable tick =
        () -> {
          check();
          try {
            observer.run();
          } catch (RuntimeException e) {
            log.debug("Could not read which servers are live: {}", e.toString());
          }
        };
    tick.run();
    Timers.every(checker, CHECK_EVERY, tick);
    return this;
  }

  /**
   * Whether this node may judge others dead: it holds its lock, and has held it for {@code settle}
   * since it last had to take it again (after a lost connection, a database outage, every node
   * needs a moment to take its own lock again). The first lock needs no wait.
   */
  public boolean mayJudge(Duration settle) {
    Instant since = heldSince;
    return since != null && (!retaken || !since.plus(settle).isAfter(clock.instant()));
  }

  /**
   * Runs {@code action} each time the lock is taken again after it was lost (a database outage or
   * restart, a broken connection), in the checking thread, with the instant the loss was noticed.
   */
  public NodeLiveness onRetaken(Consumer<Instant> action) {
    this.onRetaken = action;
    return this;
  }

  /** The server id this node's lock is keyed by. */
  public UUID serverId() {
    return serverId;
  }

  private void check() {
    try {
      Connection c = connection;
      if (c != null && alive(c)) {
        return;
      }
      if (c != null && lostAt == null) {
        lostAt = clock.instant();
      }
      heldSince = null;
      closeQuietly(c);
      boolean again = c != null || retaken;
      connection = lock(connections.open());
      retaken = again;
      heldSince = clock.instant();
      Instant lost = lostAt;
      lostAt = null;
      if (lost != null) {
        log.info("Liveness lock of server {} taken again on a new connection", serverId);
        try {
          onRetaken.accept(lost);
        } catch (RuntimeException e) {
          log.warn("After the liveness lock was taken again: {}", e.toString());
        }
      }
    } catch (SQLException | RuntimeException e) {
      log.warn("Liveness lock of server {} not held: {}", serverId, e.toString());
    }
  }

  private Connection lock(Connection c) throws SQLException {
    try {
      c.setAutoCommit(true);
      c.setNetworkTimeout(Runnable::run, 3_000);
      try (Statement s = c.createStatement()) {
        // The server notices a lost host within seconds (a dead process is noticed at once).
        s.execute("SET tcp_keepalives_idle = 2");
        s.execute("SET tcp_keepalives_interval = 1");
        s.execute("SET tcp_keepalives_count = 2");
      }
      String sql = "SELECT pg_try_advisory_lock(?, hashtext(?))";
      if (!Db.rows(c, sql, rs -> rs.getBoolean(1), LivenessLock.SPACE, serverId.toString())
          .get(0)) {
        // Another live server's id hashes to the same key: this node still counts as live.
        log.warn("Liveness lock of server {} is held by another session", serverId);
      }
      return c;
    } catch (SQLException | RuntimeException e) {
      closeQuietly(c);
      throw e;
    }
  }

  private static boolean alive(Connection c) {
    try (Statement s = c.createStatement()) {
      s.execute("SELECT 1");
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  private static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // gone already
      }
    }
  }

  /** Releases the lock: the node is leaving. */
  @Override
  public void close() {
    checker.shutdownNow();
    heldSince = null;
    closeQuietly(connection);
  }
}
