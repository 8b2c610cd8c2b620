package com.captchajobs.core.internal.notify;

import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.store.Solve;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.model.SolveStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Status changes of solves, notified by PostgreSQL: the schema's trigger sends {@code
 * pg_notify('captchajobs_solve', '<id>:<STATUS>')} on every insert and status change, delivered at
 * commit to every listening node. One dedicated connection per node listens; a daemon thread blocks
 * in {@link PGConnection#getNotifications(int)} (no table polling) and dispatches to subscribers.
 *
 * <p>A connection can die without telling: a NAT that forgot it, a failover without a reset (a
 * half-open connection), where a read just waits. So the connection uses TCP keepalive, and every
 * {@link #LIVENESS_INTERVAL_MILLIS} the thread runs {@code SELECT 1} under a network timeout of
 * {@link #LIVENESS_TIMEOUT_MILLIS}: no answer is a lost connection, and the thread reconnects.
 *
 * <p>Notifications sent while the connection is down are lost. So after every (re)connect each
 * subscribed solve is looked up once and its current status dispatched, and global listeners get
 * {@link Listener#onReconnect()} to catch up in their own way.
 *
 * <pre>{@code
 * try (Subscription s = notifications.subscribe(id, status -> ...)) { ... }
 * }</pre>
 *
 * Callbacks run on the listener thread: keep them short (complete a future, hand off to an
 * executor).
 */
public final class SolveNotifications implements AutoCloseable {

  /** The channel the schema's trigger notifies. */
  public static final String CHANNEL = "captchajobs_solve";

  /**
   * The channel of dispatch wake-ups: sent after a submit job is created, so that a worker node
   * with idle threads fetches it at once instead of at its next JobRunr poll. The payload names the
   * sending node.
   */
  public static final String DISPATCH_CHANNEL = "captchajobs_dispatch";

  /**
   * The channel of rung pushes: sent once a push's ring is committed, just before its fetch's job
   * is created, so that a worker fetches the answer at its instant outside JobRunr's queue. The
   * payload is a {@link PushNotice}.
   */
  public static final String PUSH_CHANNEL = "captchajobs_push";

  /** How long one blocking read waits; bounds how fast {@link #close()} is noticed. */
  static final int READ_TIMEOUT_MILLIS = 500;

  /** How often the listening connection proves it is alive. */
  static final int LIVENESS_INTERVAL_MILLIS = 2_000;

  /** How long the liveness check (and any other statement on the connection) may wait. */
  static final int LIVENESS_TIMEOUT_MILLIS = 3_000;

  private static final Logger log = LoggerFactory.getLogger(SolveNotifications.class);

  /** Opens a new, unpooled connection: it is held for the node's life. */
  @FunctionalInterface
  public interface ConnectionFactory {
    Connection open() throws SQLException;
  }

  /** Sees every notification of this node. */
  public interface Listener {
    void onStatus(UUID id, SolveStatus status);

    /** The connection was (re)established: notifications may have been missed before it. */
    default void onReconnect() {}
  }

  private final ConnectionFactory connections;
  private final Function<UUID, Optional<SolveStatus>> currentStatus;
  private final Duration maxBackoff;
  private final Map<UUID, Set<Consumer<SolveStatus>>> subscribers = new ConcurrentHashMap<>();
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<String>> dispatchListeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<PushNotice>> pushListeners = new CopyOnWriteArrayList<>();
  private volatile CountDownLatch listening = new CountDownLatch(1);
  private volatile boolean closed;
  private volatile Connection connection;
  private Thread thread;

  /**
   * Listens on a connection of its own from {@code dataSource}; statuses are read from the
   * repository.
   */
  public static SolveNotifications forDataSource(
      DataSource dataSource, SolveRepository repository) {
    return new SolveNotifications(
        DedicatedConnections.of(dataSource, "captchajobs-notifications"),
        id -> repository.find(id).map(Solve::status),
        Duration.ofSeconds(5));
  }

  /**
   * @param connections opens the dedicated listening connection (a PostgreSQL one)
   * @param currentStatus reads a solve's status from its row, used after a (re)connect
   */
  SolveNotifications(
      ConnectionFactory connections,
      Function<UUID, Optional<SolveStatus>> currentStatus,
      Duration maxBackoff) {
    this.connections = connections;
    this.currentStatus = currentStatus;
    this.maxBackoff = maxBackoff;
  }

  /** Starts the listening thread; returns at once (see {@link #awaitListening}). */
  public synchronized SolveNotifications start() {
    if (thread == null && !closed) {
      thread = new Thread(this::run, "captchajobs-notifications");
      thread.setDaemon(true);
      thread.start();
    }
    return this;
  }

  /**
   * Whether LISTEN is active and the catch-up after connecting is done, waiting at most {@code
   * timeout} for it.
   */
  public boolean awaitListening(Duration timeout) throws InterruptedException {
    return listening.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Calls {@code onStatus} with every status notified for {@code id} until the returned handle is
   * closed. The caller should read the row once after subscribing: a change committed just before
   * the subscription is not notified to it.
   */
  public Subscription subscribe(UUID id, Consumer<SolveStatus> onStatus) {
    subscribers.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(onStatus);
    return () ->
        subscribers.computeIfPresent(
            id,
            (k, set) -> {
              set.remove(onStatus);
              return set.isEmpty() ? null : set;
            });
  }

  /** Adds a listener of every notification; returns a handle that removes it. */
  public Subscription addListener(Listener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /**
   * Adds a listener of dispatch wake-ups ({@link #DISPATCH_CHANNEL}), called with the sender's
   * payload, and with {@code null} after every (re)connect (wake-ups may have been missed); returns
   * a handle that removes it.
   */
  public Subscription addDispatchListener(Consumer<String> onWakeUp) {
    dispatchListeners.add(onWakeUp);
    return () -> dispatchListeners.remove(onWakeUp);
  }

  /**
   * Adds a listener of rung pushes ({@link #PUSH_CHANNEL}); returns a handle that removes it. A
   * notice lost while the connection was down is not replayed: the fetch's job stands for it.
   */
  public Subscription addPushListener(Consumer<PushNotice> onPush) {
    pushListeners.add(onPush);
    return () -> pushListeners.remove(onPush);
  }

  /** Solves with at least one subscriber (for tests and metrics). */
  public int subscribedSolves() {
    return subscribers.size();
  }

  /** Drops the connection as a network failure would; the thread reconnects (for tests). */
  void dropConnection() throws SQLException {
    Connection c = connection;
    if (c != null) {
      c.close();
    }
  }

  private void run() {
    long backoff = 100;
    while (!closed) {
      try (Connection c = connections.open()) {
        connection = c;
        c.setNetworkTimeout(Runnable::run, LIVENESS_TIMEOUT_MILLIS);
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN " + CHANNEL);
          s.execute("LISTEN " + DISPATCH_CHANNEL);
          s.execute("LISTEN " + PUSH_CHANNEL);
        }
        PGConnection pg = c.unwrap(PGConnection.class);
        backoff = 100;
        log.debug("Listening on {}", CHANNEL);
        // What was committed between LISTEN and now is older than the rows: a round trip brings
        // it in and it is handed out first, so the catch-up's current status comes after it and a
        // subscriber sees statuses in order.
        checkAlive(c);
        handle(pg.getNotifications());
        catchUp();
        listening.countDown();
        long nextCheck = System.nanoTime() + LIVENESS_INTERVAL_MILLIS * 1_000_000L;
        while (!closed) {
          handle(pg.getNotifications(READ_TIMEOUT_MILLIS));
          if (System.nanoTime() - nextCheck >= 0) {
            checkAlive(c);
            nextCheck = System.nanoTime() + LIVENESS_INTERVAL_MILLIS * 1_000_000L;
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (closed) {
          return;
        }
        listening = new CountDownLatch(1);
        log.warn(
            "Lost the {} listener connection ({}); reconnecting in {} ms",
            CHANNEL,
            e.getMessage(),
            backoff);
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
        backoff = Math.min(backoff * 2, maxBackoff.toMillis());
      } finally {
        connection = null;
      }
    }
  }

  private void handle(PGNotification[] batch) {
    if (batch == null) {
      return;
    }
    for (PGNotification n : batch) {
      if (DISPATCH_CHANNEL.equals(n.getName())) {
        wakeUp(n.getParameter());
      } else if (PUSH_CHANNEL.equals(n.getName())) {
        PushNotice.parse(n.getParameter())
            .ifPresent(p -> callEach(pushListeners, l -> l.accept(p), "Push listener failed"));
      } else {
        dispatch(n.getParameter());
      }
    }
  }

  /**
   * A round trip within the network timeout, or an SQLException that makes the thread reconnect.
   */
  private static void checkAlive(Connection c) throws SQLException {
    Db.rows(c, "SELECT 1", rs -> 0);
  }

  /** After a (re)connect: what was missed is read from the rows, not from the channel. */
  private void catchUp() {
    for (UUID id : List.copyOf(subscribers.keySet())) {
      try {
        currentStatus.apply(id).ifPresent(status -> deliver(id, status));
      } catch (RuntimeException e) {
        log.warn("Could not re-check solve {} after reconnect: {}", id, e.getMessage());
      }
    }
    wakeUp(null);
    callEach(listeners, Listener::onReconnect, "Notification listener failed on reconnect");
  }

  void dispatch(String payload) {
    int colon = payload.indexOf(':');
    UUID id;
    SolveStatus status;
    try {
      id = UUID.fromString(payload.substring(0, colon));
      status = SolveStatus.valueOf(payload.substring(colon + 1));
    } catch (RuntimeException e) {
      log.warn("Ignoring malformed notification on {}: {}", CHANNEL, payload);
      return;
    }
    deliver(id, status);
    callEach(
        listeners, l -> l.onStatus(id, status), "Notification listener failed for solve " + id);
  }

  private void wakeUp(String sender) {
    callEach(dispatchListeners, l -> l.accept(sender), "Dispatch listener failed");
  }

  private void deliver(UUID id, SolveStatus status) {
    Set<Consumer<SolveStatus>> set = subscribers.get(id);
    if (set != null) {
      callEach(List.copyOf(set), c -> c.accept(status), "Subscriber of solve " + id + " failed");
    }
  }

  /** Calls each target in turn; what one throws is logged and does not stop the others. */
  private static <T> void callEach(Iterable<T> targets, Consumer<T> call, String failure) {
    for (T target : targets) {
      try {
        call.accept(target);
      } catch (RuntimeException e) {
        log.warn(failure, e);
      }
    }
  }

  /** Stops listening and closes the connection; idempotent. */
  @Override
  public void close() {
    closed = true;
    Thread t;
    synchronized (this) {
      t = thread;
    }
    if (t != null) {
      t.interrupt();
      try {
        t.join(2 * READ_TIMEOUT_MILLIS + 1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
