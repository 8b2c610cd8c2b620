package com.captchajobs.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.store.SolveInserts.CappedInsert;
import com.captchajobs.core.internal.upkeep.Retention;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client's unfinished solves as the cap reads them (base count plus the changes the solve table's
 * triggers record, V15), on real PostgreSQL: every row that becomes or stops being unfinished is
 * counted, whichever statement moves it; the cap holds exactly under concurrent enqueues; folding
 * the changes, also twice at once, counts each change once.
 */
class UnfinishedCountTest {

  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;
  static SolveInserts inserts;
  static SolveRepository repository;
  static SolveTransitions transitions;

  @BeforeAll
  static void migrate() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(24);
    schema.migrate(dataSource);
    OwnJobRunr.open(dataSource, schema); // the retention pass deletes from its job tables too
    db = new Db(dataSource, schema);
    inserts = new SolveInserts(dataSource, schema);
    repository = new SolveRepository(dataSource, schema);
    transitions = new SolveTransitions(dataSource, schema);
  }

  @AfterAll
  static void close() {
    dataSource.close();
  }

  static String newClient() {
    return "c-" + UUID.randomUUID().toString().substring(0, 8);
  }

  static SolveInserts.NewSolve newSolve(String client, String key) {
    return new SolveInserts.NewSolve(
        UUID.randomUUID(),
        key,
        CaptchaType.TURNSTILE,
        Map.of("sitekey", "0x4AAA", "pageUrl", "https://a.example/"),
        "a".repeat(64),
        0,
        null,
        UUID.randomUUID(),
        client);
  }

  static CappedInsert enqueue(String client, String key, int cap) {
    return inserts.insertUnderCap(newSolve(client, key), "node-a", Duration.ofMinutes(1), cap);
  }

  /** A row stored directly in {@code status} (SUBMITTED ones run task {@code t-<key>}). */
  static UUID row(String client, String key, String status) {
    UUID id = UUID.randomUUID();
    db.update(
        "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
            + " status, task_id) VALUES (?, ?, ?, 'TURNSTILE', '{}'::jsonb, repeat('a', 64), ?,"
            + " CASE WHEN ? = 'SUBMITTED' THEN 't-' || ? END)",
        id,
        client,
        key,
        status,
        status,
        key);
    return id;
  }

  /** The client's unfinished rows, counted in the solve table itself. */
  static int actual(String client) {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.solve WHERE client = ?"
                + " AND status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED')",
            rs -> rs.getInt(1),
            client)
        .orElseThrow();
  }

  static int changeRows(String client) {
    return db.queryOne(
            "SELECT count(*) FROM captchajobs.client_unfinished_delta WHERE client = ?",
            rs -> rs.getInt(1),
            client)
        .orElseThrow();
  }

  /** The count the cap reads equals the solve table's, and is {@code expected}. */
  static void counted(String client, int expected) {
    assertThat(actual(client)).as("unfinished rows of " + client).isEqualTo(expected);
    assertThat(repository.countUnfinished(client)).as("count of " + client).isEqualTo(expected);
  }

  /** {@code attempts} enqueues of new keys from 16 threads at once; how many were stored. */
  static int enqueueAtOnce(String client, String prefix, int attempts, int cap) throws Exception {
    List<Callable<CappedInsert>> calls = new ArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    for (int i = 0; i < attempts; i++) {
      String key = prefix + i;
      calls.add(
          () -> {
            go.await();
            return enqueue(client, key, cap);
          });
    }
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<CappedInsert>> results = new ArrayList<>();
      for (Callable<CappedInsert> call : calls) {
        results.add(pool.submit(call));
      }
      go.countDown();
      int stored = 0;
      for (Future<CappedInsert> f : results) {
        CappedInsert r = f.get();
        assertThat(r).isNotEqualTo(CappedInsert.KEY_EXISTS);
        if (r != CappedInsert.OVER_CAP) {
          stored++;
        }
      }
      return stored;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theCapHoldsExactlyUnderConcurrentEnqueuesAndAdmitsAsManyMoreAsFinished() throws Exception {
    String client = newClient();
    assertThat(enqueueAtOnce(client, "a-", 160, 40)).isEqualTo(40);
    counted(client, 40);
    // every capped enqueue folds the changes it reads: at most the last insert's row is left
    assertThat(changeRows(client)).isLessThanOrEqualTo(1);

    List<UUID> ids =
        db.query(
            "SELECT id FROM captchajobs.solve WHERE client = ? ORDER BY business_key",
            rs -> Db.uuid(rs, "id"),
            client);
    for (UUID id : ids.subList(0, 4)) { // four end through the engine's own transition
      transitions.markFailed(id, "ERROR_CAPTCHA_UNSOLVABLE", ErrorClass.UNSOLVABLE);
    }
    db.update( // three more in one bulk statement
        "UPDATE captchajobs.solve SET status = 'FAILED', updated_at = now() - interval '1 hour'"
            + " WHERE id IN (?, ?, ?)",
        ids.get(4),
        ids.get(5),
        ids.get(6));
    db.update("DELETE FROM captchajobs.solve WHERE id IN (?, ?)", ids.get(7), ids.get(8));
    counted(client, 31);
    // the retention pass deletes the three failed an hour ago: final already, nothing changes
    assertThat(
            new Retention(dataSource, schema, Duration.ofMinutes(30)).run().orElseThrow().solves())
        .isEqualTo(3);
    counted(client, 31);

    assertThat(enqueueAtOnce(client, "b-", 80, 40)).isEqualTo(9);
    counted(client, 40);
    String stored =
        db.queryOne(
                "SELECT business_key FROM captchajobs.solve WHERE client = ?"
                    + " AND business_key LIKE 'b-%' LIMIT 1",
                rs -> rs.getString(1), client)
            .orElseThrow();
    assertThat(enqueue(client, stored, 40)).isEqualTo(CappedInsert.KEY_EXISTS);
    assertThat(enqueue(client, "c-0", 40)).isEqualTo(CappedInsert.OVER_CAP);
    counted(client, 40);
  }

  @Test
  void everyRowThatBecomesOrStopsBeingUnfinishedIsCountedAndNoOtherChange() {
    String client = newClient();
    String other = newClient();
    UUID queued = row(client, "q", "QUEUED");
    UUID waiting = row(client, "w", "WAITING_FOR_THREAD");
    UUID submitted = row(client, "s", "SUBMITTED");
    UUID solved = row(client, "d", "SOLVED");
    UUID failed = row(client, "f", "FAILED");
    counted(client, 3);

    assertThat(transitions.markWaiting(queued)).isTrue(); // unfinished to unfinished
    counted(client, 3);
    assertThat(
            transitions.markSolved(
                submitted, "t-s", "tok", "ua", Duration.ofMinutes(1), true, "poll"))
        .isPresent();
    counted(client, 2);
    db.update( // the token of the other solved one is handed out: final to final
        "UPDATE captchajobs.solve SET token = 'tok', expires_at = now() + interval '1 minute'"
            + " WHERE id = ?",
        solved);
    assertThat(repository.claim(solved)).isPresent();
    counted(client, 2);
    db.update( // back from a final state, as the operator's requeue does
        "UPDATE captchajobs.solve SET status = 'QUEUED', updated_at = now() WHERE id = ?"
            + " AND status = 'FAILED'",
        failed);
    counted(client, 3);
    transitions.markFailed(waiting, "ERROR_NO_SLOT_AVAILABLE", ErrorClass.THREADS);
    counted(client, 2);
    db.update("UPDATE captchajobs.solve SET polls = polls + 1 WHERE client = ?", client);
    counted(client, 2);
    db.update("UPDATE captchajobs.solve SET client = ? WHERE id = ?", other, queued);
    counted(client, 1);
    counted(other, 1);
    db.update("DELETE FROM captchajobs.solve WHERE id IN (?, ?)", solved, waiting); // both final
    counted(client, 1);
    db.update("DELETE FROM captchajobs.solve WHERE id = ?", failed); // QUEUED again
    counted(client, 0);
    counted(other, 1);
    assertThat(repository.foldUnfinished()).isGreaterThan(0);
    counted(client, 0);
    counted(other, 1);
  }

  @Test
  void foldsTwoAtOnceBesideEnqueuesAndFinishesCountEveryChangeOnce() throws Exception {
    String client = newClient();
    for (int i = 0; i < 300; i++) { // uncapped inserts: nothing folds them
      inserts.insertQueuedOrWaiting(newSolve(client, "u-" + i), "node-a", Duration.ofMinutes(1));
    }
    assertThat(changeRows(client)).isEqualTo(300);
    AtomicInteger folded = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> work = new ArrayList<>();
      for (int f = 0; f < 2; f++) { // two repair passes, as on two nodes
        work.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = 0; i < 30; i++) {
                    folded.addAndGet(repository.foldUnfinished());
                  }
                  return null;
                }));
      }
      work.add(
          pool.submit(
              () -> {
                go.await();
                for (int i = 0; i < 100; i++) {
                  assertThat(enqueue(client, "e-" + i, 1000)).isNotEqualTo(CappedInsert.OVER_CAP);
                }
                return null;
              }));
      work.add(
          pool.submit(
              () -> {
                go.await();
                for (int i = 0; i < 150; i++) {
                  db.update(
                      "UPDATE captchajobs.solve SET status = 'FAILED' WHERE client = ?"
                          + " AND business_key = ?",
                      client,
                      "u-" + i);
                }
                return null;
              }));
      go.countDown();
      for (Future<?> f : work) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    counted(client, 300 + 100 - 150);
    folded.addAndGet(repository.foldUnfinished());
    assertThat(folded.get()).isPositive();
    assertThat(changeRows(client)).isZero();
    counted(client, 250);
    assertThat(
            db.queryOne(
                "SELECT unfinished FROM captchajobs.client_unfinished WHERE client = ?",
                rs -> rs.getInt(1),
                client))
        .contains(250);
  }

  @Test
  void twoFoldsOfOneClientAtOnceWithoutItsLockStillClaimEachChangeOnce() throws Exception {
    String client = newClient();
    for (int i = 0; i < 500; i++) {
      row(client, "r-" + i, i % 5 == 0 ? "SOLVED" : "QUEUED");
    }
    db.update(
        "UPDATE captchajobs.solve SET status = 'FAILED' WHERE client = ? AND status = 'QUEUED'"
            + " AND business_key LIKE 'r-1%'",
        client);
    int changes = changeRows(client);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      CountDownLatch go = new CountDownLatch(1);
      Callable<Integer> fold =
          () -> {
            go.await();
            return db.queryOne(
                    SolveInserts.FOLD_UNFINISHED_COUNTING, rs -> rs.getInt(1), client, client)
                .orElseThrow();
          };
      Future<Integer> first = pool.submit(fold);
      Future<Integer> second = pool.submit(fold);
      go.countDown();
      assertThat(first.get() + second.get()).isEqualTo(changes);
    } finally {
      pool.shutdownNow();
    }
    assertThat(changeRows(client)).isZero();
    counted(client, actual(client));
    assertThat(actual(client)).isEqualTo(400 - 89);
  }

  @Test
  void truncatingTheSolvesEmptiesTheCounts() {
    String client = newClient();
    row(client, "t-1", "QUEUED");
    enqueue(client, "t-2", 10);
    counted(client, 2);
    db.update("TRUNCATE captchajobs.solve CASCADE");
    counted(client, 0);
    assertThat(enqueue(client, "t-3", 1))
        .isIn(CappedInsert.QUEUED, CappedInsert.WAITING_FOR_THREAD);
    counted(client, 1);
    assertThat(enqueue(client, "t-3", 10)).isEqualTo(CappedInsert.KEY_EXISTS); // below the cap
    counted(client, 1);
  }

  @Test
  void inAnotherSchemaTheTriggersCountIntoThatSchemasOwnTables() {
    Schema other = Schema.named("other_counts");
    other.migrate(dataSource);
    SolveInserts otherInserts = new SolveInserts(dataSource, other);
    String client = newClient();
    SolveInserts.NewSolve first = newSolve(client, "o-1");
    assertThat(otherInserts.insertUnderCap(first, "node-a", Duration.ofMinutes(1), 1))
        .isIn(CappedInsert.QUEUED, CappedInsert.WAITING_FOR_THREAD);
    assertThat(
            otherInserts.insertUnderCap(
                newSolve(client, "o-2"), "node-a", Duration.ofMinutes(1), 1))
        .isEqualTo(CappedInsert.OVER_CAP);
    assertThat(new SolveRepository(dataSource, other).countUnfinished(client)).isEqualTo(1);
    counted(client, 0); // nothing in the default schema's solves nor counts
    new Db(dataSource, other).update("DELETE FROM captchajobs.solve WHERE id = ?", first.id());
    assertThat(new SolveRepository(dataSource, other).countUnfinished(client)).isZero();
  }

  @Test
  void theMigrationCountsTheSolvesStoredBeforeIt() {
    try (HikariDataSource old = new HikariDataSource()) {
      old.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
      old.setMaximumPoolSize(2);
      Flyway.configure()
          .dataSource(old)
          .schemas(schema.name())
          .defaultSchema(schema.name())
          .createSchemas(true)
          .locations("classpath:db/captchajobs")
          .table(Schema.HISTORY_TABLE)
          .target("14")
          .load()
          .migrate();
      Db before = new Db(old, schema);
      String[] statuses = {"QUEUED", "WAITING_FOR_THREAD", "SUBMITTED", "SOLVED", "FAILED"};
      for (int i = 0; i < 25; i++) {
        before.update(
            "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
                + " status) VALUES (?, ?, ?, 'TURNSTILE', '{}'::jsonb, repeat('a', 64), ?)",
            UUID.randomUUID(),
            i % 2 == 0 ? "even" : "odd",
            "k-" + i,
            statuses[i % 5]);
      }
      schema.migrate(old);
      SolveRepository after = new SolveRepository(old, schema);
      // unfinished: i % 5 < 3; even i: 0, 2, 6, 10, 12, 16, 20, 22; odd: 1, 5, 7, 11, 15, 17, 21
      assertThat(after.countUnfinished("even")).isEqualTo(8);
      assertThat(after.countUnfinished("odd")).isEqualTo(7);
      assertThat(
              before.queryOne(
                  "SELECT count(*) FROM captchajobs.client_unfinished_delta", rs -> rs.getInt(1)))
          .contains(0);
    }
  }
}
