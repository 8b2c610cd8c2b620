package com.captchajobs.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.db.Db;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The solve rows as the engine and the API read them, on real PostgreSQL: owners, the one claim of
 * a token, expiry on the database clock, the repair pass's view of stuck solves.
 */
class SolveRepositoryTest {

  static HikariDataSource dataSource;
  static final Schema schema = Schema.named("captchajobs");
  static Db db;
  static SolveRepository repository;

  @BeforeAll
  static void migrate() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(4);
    schema.migrate(dataSource);
    OwnJobRunr.open(dataSource, schema); // the repair pass looks for live jobs in its tables
    db = new Db(dataSource, schema);
    repository = new SolveRepository(dataSource, schema);
  }

  @AfterAll
  static void close() {
    dataSource.close();
  }

  @BeforeEach
  void noSolves() {
    db.update("DELETE FROM captchajobs.solve");
  }

  static UUID solve(String client, String key, String status) {
    UUID id = UUID.randomUUID();
    db.update(
        "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
            + " status, priority, callback_url) VALUES (?, ?, ?, 'TURNSTILE',"
            + " '{\"sitekey\":\"0x4AAA\",\"pageUrl\":\"https://a.example/\"}'::jsonb,"
            + " repeat('a', 64), ?, 3, 'https://hooks.example/cb')",
        id,
        client,
        key,
        status);
    return id;
  }

  static UUID solved(String key, String expiresIn) {
    UUID id = solve(SolveRepository.JAVA_API_CLIENT, key, "SOLVED");
    db.update(
        "UPDATE captchajobs.solve SET token = 'tok-' || business_key, user_agent = 'ua',"
            + " submitted_at = now() - interval '20 s', solved_at = now(),"
            + " expires_at = now() + ?::interval WHERE id = ?",
        expiresIn,
        id);
    return id;
  }

  static String status(UUID id) {
    return db.queryOne(
            "SELECT status FROM captchajobs.solve WHERE id = ?", rs -> rs.getString(1), id)
        .orElseThrow();
  }

  @Test
  void aRowIsReadBackWithItsParametersAndEveryColumnTheEngineUses() {
    UUID id = solve(SolveRepository.JAVA_API_CLIENT, "read-back", "QUEUED");

    Solve solve = repository.find(id).orElseThrow();

    assertThat(solve.businessKey()).isEqualTo("read-back");
    assertThat(solve.type()).isEqualTo(CaptchaType.TURNSTILE);
    assertThat(solve.params())
        .isEqualTo(Map.of("sitekey", "0x4AAA", "pageUrl", "https://a.example/"));
    assertThat(solve.priority()).isEqualTo(3);
    assertThat(solve.callbackUrl()).isEqualTo("https://hooks.example/cb");
    assertThat(solve.status()).isEqualTo(SolveStatus.QUEUED);
    assertThat(solve.createdAt()).isNotNull();
    assertThat(solve.report()).isNull();
    assertThat(repository.find(UUID.randomUUID())).isEmpty();
  }

  @Test
  void aClientSeesOnlyItsOwnSolvesAndTheSameBusinessKeyMayBelongToTwoClients() {
    UUID shops = solve("shop", "order-1", "QUEUED");
    UUID others = solve("other", "order-1", "QUEUED");

    assertThat(repository.findOwned(shops, "shop")).isPresent();
    assertThat(repository.findOwned(shops, "other")).isEmpty();
    assertThat(repository.findByBusinessKey("other", "order-1").orElseThrow().id())
        .isEqualTo(others);
    assertThat(repository.findByBusinessKey(SolveRepository.JAVA_API_CLIENT, "order-1"))
        .isEmpty(); // not the Java API's
    assertThat(repository.clientOf(shops)).hasValue("shop");
    assertThat(repository.payloadHash("shop", "order-1")).hasValue("a".repeat(64));
  }

  @Test
  void onlyUnfinishedSolvesCountTowardsAClientsCap() {
    solve("capped", "q", "QUEUED");
    solve("capped", "w", "WAITING_FOR_THREAD");
    solve("capped", "s", "SUBMITTED");
    solve("capped", "done", "SOLVED");
    solve("capped", "failed", "FAILED");
    solve("someone-else", "q", "QUEUED");

    assertThat(repository.countUnfinished("capped")).isEqualTo(3);
  }

  @Test
  void aTokenIsClaimedOnceAndThenIsGoneFromTheRow() {
    UUID id = solved("claim-once", "5 minutes");

    SolveRepository.Claim claim = repository.claim(id).orElseThrow();

    assertThat(claim.claimed().token()).isEqualTo("tok-claim-once");
    assertThat(claim.type()).isEqualTo(CaptchaType.TURNSTILE);
    assertThat(status(id)).isEqualTo("CLAIMED");
    assertThat(repository.token(id)).isEmpty();
    assertThat(repository.claim(id)).isEmpty();
  }

  @Test
  void twoClaimsAtOnceHandTheTokenOutOnlyOnce() throws Exception {
    UUID id = solved("claim-race", "5 minutes");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Boolean>> claims =
          List.of(
              pool.submit(
                  () -> {
                    go.await();
                    return repository.claim(id).isPresent();
                  }),
              pool.submit(
                  () -> {
                    go.await();
                    return repository.claim(id).isPresent();
                  }));
      go.countDown();

      int won = 0;
      for (Future<Boolean> c : claims) {
        won += c.get() ? 1 : 0;
      }
      assertThat(won).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anExpiredTokenCannotBeClaimedAndTheExpiryPassMarksOnlyExpiredRows() {
    UUID expired = solved("expired", "-1 second");
    UUID fresh = solved("fresh", "5 minutes");

    assertThat(repository.claim(expired)).isEmpty();
    assertThat(repository.expireTokens()).isEqualTo(1);

    assertThat(status(expired)).isEqualTo("EXPIRED");
    assertThat(repository.token(expired)).isEmpty();
    assertThat(status(fresh)).isEqualTo("SOLVED");
    assertThat(repository.token(fresh)).hasValue("tok-fresh");
  }

  @Test
  void aStuckSolveIsOneUnchangedForTheQuietSpanWithoutALiveJob() {
    UUID quietQueued = solve(SolveRepository.JAVA_API_CLIENT, "stuck", "QUEUED");
    UUID busy = solve(SolveRepository.JAVA_API_CLIENT, "just-moved", "SUBMITTED");
    UUID parked = solve(SolveRepository.JAVA_API_CLIENT, "parked", "WAITING_FOR_THREAD");
    UUID done = solve(SolveRepository.JAVA_API_CLIENT, "done", "SOLVED");
    db.update(
        "UPDATE captchajobs.solve SET updated_at = now() - interval '1 minute' WHERE id IN"
            + " (?, ?, ?)",
        quietQueued,
        parked,
        done);

    List<SolveRepository.Stuck> stuck =
        repository.findStuck(
            Duration.ofSeconds(10), Duration.ofMinutes(10), Instant.EPOCH, new UUID(0, 0), 10);

    assertThat(stuck).extracting(s -> s.solve().id()).containsExactly(quietQueued);
    assertThat(stuck.get(0).repairs()).isZero();
    assertThat(busy).isNotIn(stuck.stream().map(s -> s.solve().id()).toList());
  }

  @Test
  void aRepairIsRecordedOnlyByThePassThatReadTheCurrentRepairCount() {
    UUID id = solve(SolveRepository.JAVA_API_CLIENT, "repair", "QUEUED");
    UUID job = UUID.randomUUID();

    assertThat(repository.markRepaired(id, 0, job)).isTrue();
    assertThat(repository.markRepaired(id, 0, UUID.randomUUID())).isFalse();

    assertThat(repository.unfinishedWithJobs(List.of(job)))
        .singleElement()
        .satisfies(s -> assertThat(s.repairs()).isEqualTo(1));
    assertThat(repository.unfinishedWithJobs(List.of())).isEmpty();
  }

  @Test
  void theSubmitLockIsSeenOnlyWhileItRunsAndBeforeATaskIsStored() {
    UUID locked = solve(SolveRepository.JAVA_API_CLIENT, "locked", "QUEUED");
    UUID lapsed = solve(SolveRepository.JAVA_API_CLIENT, "lapsed", "QUEUED");
    db.update(
        "UPDATE captchajobs.solve SET submit_lock_until = now() + interval '1 minute' WHERE id = ?",
        locked);
    db.update(
        "UPDATE captchajobs.solve SET submit_lock_until = now() - interval '1 second' WHERE id = ?",
        lapsed);

    assertThat(repository.submitLocked(locked)).isTrue();
    assertThat(repository.submitLocked(lapsed)).isFalse();
  }

  @Test
  void recentSolvedTasksAreMeasuredFromSubmissionNewestFirst() {
    UUID older = solved("older", "5 minutes");
    UUID newer = solved("newer", "5 minutes");
    db.update(
        "UPDATE captchajobs.solve SET solved_at = submitted_at + interval '7 s' WHERE id = ?",
        older);
    db.update(
        "UPDATE captchajobs.solve SET solved_at = submitted_at + interval '12 s' WHERE id = ?",
        newer);

    assertThat(repository.recentSolved(CaptchaType.TURNSTILE, 5))
        .extracting(SolveRepository.SolvedSample::sinceSubmitMillis)
        .containsExactly(12_000L, 7_000L);
    assertThat(repository.recentSolved(CaptchaType.IMAGE, 5)).isEmpty();
  }

  @Test
  void unreadableStoredParametersAreRefusedAsAnIllegalState() {
    assertThatThrownBy(() -> SolveRepository.params("{\"sitekey\": secret-value"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Unreadable solve params");
  }
}
