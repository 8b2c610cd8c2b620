package com.captchajobs.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A new solve under its client's cap of unfinished solves, on real PostgreSQL: exact under
 * concurrent enqueues, counted after the client's lock is taken, and stored in one round trip so
 * that the lock is never held while the node is away between statements (issue 33, item 4: the REST
 * enqueues of one client were serialised behind three round trips each).
 */
class SolveInsertsTest {

  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;

  @BeforeAll
  static void migrate() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(40);
    schema.migrate(dataSource);
    db = new Db(dataSource, schema);
  }

  @AfterAll
  static void close() {
    dataSource.close();
  }

  @BeforeEach
  void noSolvesAndTwoSlots() {
    db.update("DELETE FROM captchajobs.solve");
    db.update("DELETE FROM captchajobs.gate_slot");
    db.update("UPDATE captchajobs.gate SET capacity = 2 WHERE id = 1");
    db.update(
        "INSERT INTO captchajobs.gate_slot (slot_no, freed_at) SELECT g, now()"
            + " FROM generate_series(0, 1) g");
  }

  private static SolveInserts.NewSolve solve(String client, String key) {
    UUID id = UUID.randomUUID();
    return new SolveInserts.NewSolve(
        id,
        key,
        CaptchaType.TURNSTILE,
        Map.of("sitekey", "0x4AAA", "pageUrl", "https://a.example/" + key),
        "a".repeat(64),
        0,
        null,
        UUID.randomUUID(),
        client);
  }

  private static SolveInserts.CappedInsert insert(
      SolveInserts inserts, String client, String key, int cap) {
    return inserts.insertUnderCap(solve(client, key), "node-1", Duration.ofMinutes(3), cap);
  }

  private static int rows(String client) {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.solve WHERE client = ?", rs -> rs.getInt(1), client)
        .orElseThrow();
  }

  @Test
  void theFirstSolvesTakeTheFreeSlotsTheNextWaitAndTheCapRefusesTheRestButAKeyInUse() {
    SolveInserts inserts = new SolveInserts(dataSource, schema);

    assertThat(insert(inserts, "shop", "a", 4)).isEqualTo(SolveInserts.CappedInsert.QUEUED);
    assertThat(insert(inserts, "shop", "b", 4)).isEqualTo(SolveInserts.CappedInsert.QUEUED);
    assertThat(insert(inserts, "shop", "c", 4))
        .isEqualTo(SolveInserts.CappedInsert.WAITING_FOR_THREAD);
    assertThat(insert(inserts, "shop", "a", 4)).isEqualTo(SolveInserts.CappedInsert.KEY_EXISTS);
    assertThat(insert(inserts, "shop", "d", 4))
        .isEqualTo(SolveInserts.CappedInsert.WAITING_FOR_THREAD);
    assertThat(insert(inserts, "shop", "e", 4)).isEqualTo(SolveInserts.CappedInsert.OVER_CAP);
    assertThat(insert(inserts, "shop", "b", 4)).isEqualTo(SolveInserts.CappedInsert.KEY_EXISTS);
    assertThat(insert(inserts, "other", "e", 4))
        .isEqualTo(SolveInserts.CappedInsert.WAITING_FOR_THREAD);

    assertThat(rows("shop")).isEqualTo(4);
    assertThat(
            db.queryOne(
                "SELECT count(*) FROM captchajobs.gate_slot WHERE solve_id IS NOT NULL",
                rs -> rs.getInt(1)))
        .hasValue(2);
    db.update("UPDATE captchajobs.solve SET status = 'SOLVED' WHERE business_key = 'a'");
    assertThat(insert(inserts, "shop", "e", 4))
        .isEqualTo(SolveInserts.CappedInsert.WAITING_FOR_THREAD);
  }

  @Test
  void fortyEnqueuesOfOneClientAtOnceStoreExactlyItsCap() throws Exception {
    SolveInserts inserts = new SolveInserts(dataSource, schema);
    ExecutorService pool = Executors.newFixedThreadPool(40);
    try {
      for (int round = 0; round < 3; round++) {
        String client = "crowd-" + round;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<SolveInserts.CappedInsert>> results = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
          String key = "k" + i;
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    return insert(inserts, client, key, 10);
                  }));
        }
        go.countDown();
        int stored = 0;
        int over = 0;
        for (Future<SolveInserts.CappedInsert> f : results) {
          SolveInserts.CappedInsert r = f.get();
          if (r == SolveInserts.CappedInsert.OVER_CAP) {
            over++;
          } else {
            stored++;
          }
        }
        assertThat(stored).as("round " + round).isEqualTo(10);
        assertThat(over).isEqualTo(30);
        assertThat(rows(client)).isEqualTo(10);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anEnqueueWaitingForItsClientsLockCountsWhatTheHolderCommittedMeanwhile() throws Exception {
    SolveInserts inserts = new SolveInserts(dataSource, schema);
    insert(inserts, "late", "first", 2);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (Connection holder = dataSource.getConnection()) {
      holder.setAutoCommit(false);
      try (PreparedStatement lock = holder.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
        lock.setLong(1, db.lockKey("unfinished:late"));
        lock.execute();
      }
      Future<SolveInserts.CappedInsert> waiting =
          pool.submit(() -> insert(inserts, "late", "third", 2));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  db.queryOne(
                              "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                                  + " AND NOT granted",
                              rs -> rs.getInt(1))
                          .orElse(0)
                      == 1);
      // the holder stores the client's second unfinished solve while the enqueue waits
      try (PreparedStatement second =
          holder.prepareStatement(
              "INSERT INTO captchajobs.solve (id, client, business_key, type, params,"
                  + " payload_hash, status) VALUES (?, 'late', 'second', 'TURNSTILE',"
                  + " '{}'::jsonb, repeat('a', 64), 'WAITING_FOR_THREAD')")) {
        second.setObject(1, UUID.randomUUID());
        second.executeUpdate();
      }
      assertThat(waiting).isNotDone();
      holder.commit();

      assertThat(waiting.get()).isEqualTo(SolveInserts.CappedInsert.OVER_CAP);
      assertThat(rows("late")).isEqualTo(2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anEnqueueUnderTheCapIsOneStatementCallInAutocommitSoTheLockNeverWaitsForTheNode()
      throws Exception {
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger transactions = new AtomicInteger();
    DataSource counting = counting(dataSource, calls, transactions);
    SolveInserts inserts = new SolveInserts(counting, schema);

    assertThat(insert(inserts, "one-trip", "a", 5)).isEqualTo(SolveInserts.CappedInsert.QUEUED);

    assertThat(calls).as("statement executions sent to PostgreSQL").hasValue(1);
    assertThat(transactions).as("explicit transactions (setAutoCommit(false))").hasValue(0);
    assertThat(rows("one-trip")).isEqualTo(1);
  }

  /** The pool's connections, counting statement executions and explicit transactions. */
  private static DataSource counting(
      DataSource real, AtomicInteger calls, AtomicInteger transactions) {
    return (DataSource)
        Proxy.newProxyInstance(
            SolveInsertsTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = method.invoke(real, args);
              if (!"getConnection".equals(method.getName())) {
                return result;
              }
              Connection c = (Connection) result;
              return Proxy.newProxyInstance(
                  SolveInsertsTest.class.getClassLoader(),
                  new Class<?>[] {Connection.class},
                  (p, m, a) -> {
                    if ("setAutoCommit".equals(m.getName()) && Boolean.FALSE.equals(a[0])) {
                      transactions.incrementAndGet();
                    }
                    Object r = invoke(m, c, a);
                    if (r instanceof PreparedStatement ps) {
                      return Proxy.newProxyInstance(
                          SolveInsertsTest.class.getClassLoader(),
                          new Class<?>[] {PreparedStatement.class},
                          (p2, m2, a2) -> {
                            if (m2.getName().startsWith("execute")) {
                              calls.incrementAndGet();
                            }
                            return invoke(m2, ps, a2);
                          });
                    }
                    return r;
                  });
            });
  }

  private static Object invoke(java.lang.reflect.Method m, Object target, Object[] args)
      throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
