package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.model.ClaimedToken;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.Sql;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@link Solves}, the enqueue side, on real PostgreSQL through an enqueue-only {@link CaptchaJobs}
 * (no key, no worker): the outcomes a worker would write are set on the row, so each rule of the
 * Java API is seen on its own: idempotent enqueue and its conflict, the cap per client, one
 * client's solves hidden from another, every reason a token is not handed out, and {@code await}
 * completing on the database's notification.
 */
class SolvesTest {

  static CaptchaJobs app;
  static Solves solves;
  static Sql sql;

  @BeforeAll
  static void start() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(EmbeddedPostgresSupport.newDatabase());
    app = CaptchaJobs.builder().dataSource(dataSource).nodeName("solves-test").build();
    solves = app.solves();
    sql = new Sql(dataSource);
    listening();
  }

  /**
   * Returns once the node's notification listener hears the database: a probe solve's status is set
   * again until a watcher of it is told, so no test waits on a notification sent too early.
   */
  static void listening() {
    UUID probe = solves.enqueue(turnstile("listening-probe"));
    List<SolveStatus> heard = new CopyOnWriteArrayList<>();
    AutoCloseable watch = solves.watch(probe, heard::add);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              sql.update("UPDATE captchajobs.solve SET status = status WHERE id = ?", probe);
              assertThat(heard).isNotEmpty();
            });
    try {
      watch.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  static SolveRequest turnstile(String key) {
    return SolveRequest.turnstile(
        key, "0x4AAAAAAADnPIDROrmt1Wwj", "https://shop.example.test/" + key);
  }

  static void solved(UUID id, String token, String expiresIn) {
    sql.update(
        "UPDATE captchajobs.solve SET status = 'SOLVED', task_id = 'task', token = ?,"
            + " submitted_at = now() - interval '20 seconds', solved_at = now(),"
            + " expires_at = now() + ?::interval WHERE id = ?",
        token,
        expiresIn,
        id);
  }

  @Test
  void theSameKeyAndPayloadAnswersTheExistingSolveAndAnotherPayloadIsAConflict() {
    Solves.Accepted first = solves.accept(turnstile("same-1"));
    Solves.Accepted again = solves.accept(turnstile("same-1"));

    assertThat(first.created()).isTrue();
    assertThat(first.status()).isEqualTo(solves.status(first.id()).status());
    assertThat(again.created()).isFalse();
    assertThat(again.id()).isEqualTo(first.id());
    assertThatThrownBy(
            () ->
                solves.enqueue(
                    SolveRequest.turnstile("same-1", "0x4AAAAAAADnPIDROrmt1Wwj", "https://other/")))
        .isInstanceOf(SolveConflictException.class)
        .hasMessageContaining("same-1");
    assertThat(
            sql.queryForObject(
                "SELECT count(*) FROM captchajobs.solve WHERE business_key = 'same-1'", Long.class))
        .isEqualTo(1L);
  }

  @Test
  void aSolveStoredWaitingForAThreadIsAcceptedWithThatStatusNotAsQueued() {
    Integer capacity =
        sql.queryForObject("SELECT capacity FROM captchajobs.gate WHERE id = 1", Integer.class);
    sql.update("UPDATE captchajobs.gate SET capacity = 0 WHERE id = 1");
    try {
      Solves.Accepted first = solves.accept(turnstile("no-thread-1"));
      Solves.Accepted again = solves.accept(turnstile("no-thread-1"));

      assertThat(first.created()).isTrue();
      assertThat(first.status()).isEqualTo(SolveStatus.WAITING_FOR_THREAD);
      assertThat(again.status()).isEqualTo(SolveStatus.WAITING_FOR_THREAD);
      assertThat(solves.status(first.id()).status()).isEqualTo(SolveStatus.WAITING_FOR_THREAD);
    } finally {
      sql.update("UPDATE captchajobs.gate SET capacity = ? WHERE id = 1", capacity);
    }
  }

  @Test
  void atTheCapNothingIsStoredButTheSameKeyStillAnswersItsSolve() {
    Solves capped = solves.asClient("capped-client");
    Optional<Solves.Accepted> first = capped.accept(turnstile("cap-1"), 1);
    Optional<Solves.Accepted> second = capped.accept(turnstile("cap-2"), 1);
    Optional<Solves.Accepted> firstAgain = capped.accept(turnstile("cap-1"), 1);

    assertThat(first).isPresent();
    assertThat(second).isEmpty();
    assertThat(firstAgain).map(Solves.Accepted::id).contains(first.get().id());
    assertThat(capped.unfinished()).isEqualTo(1);
    assertThat(
            sql.queryForObject(
                "SELECT count(*) FROM captchajobs.solve WHERE client = 'capped-client'",
                Long.class))
        .isEqualTo(1L);
    assertThatThrownBy(() -> capped.accept(turnstile("cap-3"), -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxUnfinished");
  }

  @Test
  void aBatchLabelIsStoredWithANewSolve() {
    UUID id = solves.enqueue(turnstile("batch-1").withBatch("nightly"));

    assertThat(
            sql.queryForObject(
                "SELECT batch FROM captchajobs.solve WHERE id = ?", String.class, id))
        .isEqualTo("nightly");
  }

  @Test
  void anotherClientsSolveIsNotFoundExactlyLikeAnUnknownIdWhileTheJavaApiReadsIt() {
    Solves alice = solves.asClient("alice");
    Solves bob = solves.asClient("bob");
    UUID id = alice.enqueue(turnstile("shared-key"));
    solved(id, "alice-token", "5 minutes");

    assertThat(bob.find(id)).isEmpty();
    assertThatThrownBy(() -> bob.status(id)).isInstanceOf(SolveNotFoundException.class);
    assertThatThrownBy(() -> bob.claim(id)).isInstanceOf(SolveNotFoundException.class);
    assertThatThrownBy(() -> bob.watch(id, s -> {})).isInstanceOf(SolveNotFoundException.class);
    // bob's own key of the same name is his own solve
    assertThat(bob.enqueue(turnstile("shared-key"))).isNotEqualTo(id);
    assertThat(solves.find(id)).map(SolveStatusView::status).contains(SolveStatus.SOLVED);
    assertThat(alice.claim(id).token()).isEqualTo("alice-token");
  }

  @Test
  void aClientNameThatIsBlankTooLongOrTheJavaApisOwnIsRefused() {
    assertThatThrownBy(() -> solves.asClient(" ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> solves.asClient("x".repeat(101)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> solves.asClient(solves.client()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(solves.asClient("x".repeat(100)).client()).hasSize(100);
  }

  @Test
  void theTokenIsHandedOutOnceAndEveryOtherCaseNamesItsReason() {
    UUID queued = solves.enqueue(turnstile("claim-queued"));
    UUID good = solves.enqueue(turnstile("claim-good"));
    solved(good, "the-token", "5 minutes");
    UUID late = solves.enqueue(turnstile("claim-late"));
    solved(late, "late-token", "-1 second");
    UUID failed = solves.enqueue(turnstile("claim-failed"));
    sql.update(
        "UPDATE captchajobs.solve SET status = 'FAILED', error_code = 'ERROR_CAPTCHA_UNSOLVABLE',"
            + " error_class = 'UNSOLVABLE' WHERE id = ?",
        failed);

    assertThatThrownBy(() -> solves.claim(queued)).isInstanceOf(TokenNotReadyException.class);
    ClaimedToken token = solves.claim(good);
    assertThat(token.token()).isEqualTo("the-token");
    assertThatThrownBy(() -> solves.claim(good)).isInstanceOf(TokenAlreadyClaimedException.class);
    assertThat(solves.status(good).status()).isEqualTo(SolveStatus.CLAIMED);
    // past expires_at on the database clock, before the repair pass marked it EXPIRED
    assertThatThrownBy(() -> solves.claim(late)).isInstanceOf(TokenExpiredException.class);
    assertThatThrownBy(() -> solves.claim(failed))
        .isInstanceOfSatisfying(
            SolveFailedException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo("ERROR_CAPTCHA_UNSOLVABLE");
              assertThat(e.errorClass()).isEqualTo(ErrorClass.UNSOLVABLE);
            });
    assertThatThrownBy(() -> solves.claim(UUID.randomUUID()))
        .isInstanceOf(SolveNotFoundException.class);
    assertThat(solves.find(good).orElseThrow().toString()).doesNotContain("the-token");
  }

  @Test
  void awaitCompletesWhenAnotherConnectionMakesTheSolveFinal() throws Exception {
    UUID id = solves.enqueue(turnstile("await-1"));
    CompletableFuture<SolveStatusView> done = solves.await(id, Duration.ofSeconds(60));
    assertThat(done).isNotDone();

    solved(id, "awaited", "5 minutes");

    assertThat(done.get(30, TimeUnit.SECONDS).status()).isEqualTo(SolveStatus.SOLVED);
  }

  @Test
  void awaitOfASolveAlreadyFinalCompletesAtOnceAndOfAnUnknownIdFailsNotFound() {
    UUID id = solves.enqueue(turnstile("await-final"));
    solved(id, "final", "5 minutes");

    assertThat(solves.await(id, Duration.ofMinutes(1))).isCompleted();
    assertThat(solves.await(UUID.randomUUID(), Duration.ofMinutes(1)))
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(SolveNotFoundException.class);
  }

  @Test
  void awaitOfASolveThatStaysQueuedFailsWithATimeout() {
    UUID id = solves.enqueue(turnstile("await-timeout"));

    assertThat(solves.await(id, Duration.ofMillis(200)))
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(SolveTimeoutException.class);
  }

  @Test
  void solveNowOfAFailedSolveThrowsItsErrorInsteadOfATimeout() {
    UUID id = solves.enqueue(turnstile("now-failed"));
    sql.update(
        "UPDATE captchajobs.solve SET status = 'FAILED', error_code = 'ERROR_WRONG_USER_KEY',"
            + " error_class = 'CREDENTIAL' WHERE id = ?",
        id);

    assertThatThrownBy(() -> solves.solveNow(turnstile("now-failed"), Duration.ofSeconds(30)))
        .isInstanceOfSatisfying(
            SolveFailedException.class,
            e -> assertThat(e.errorClass()).isEqualTo(ErrorClass.CREDENTIAL));
  }

  @Test
  void aReportWithoutAVerdictIsRefusedNamingTheField() {
    UUID id = solves.enqueue(turnstile("report-null"));

    assertThatThrownBy(() -> solves.report(id, null))
        .isInstanceOf(InvalidSolveRequestException.class)
        .hasMessageContaining("verdict");
  }
}
