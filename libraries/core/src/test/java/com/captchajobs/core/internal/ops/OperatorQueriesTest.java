package com.captchajobs.core.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaTask;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.jobrunr.JobsReady;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.model.BatchSummary;
import com.captchajobs.core.model.Requeued;
import com.captchajobs.core.model.SolveFilter;
import com.captchajobs.core.model.SolveRow;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.Sql;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OperatorQueries} on real PostgreSQL with JobRunr's storage (no server: a requeue's submit
 * job is created, never run): the filters of the solves list (a key prefix taken literally), its
 * pages, a batch as its client's with nearest-rank latency percentiles, dead solves by window, the
 * requeue of a failed solve and its refusal when the row can no longer rebuild the request.
 */
class OperatorQueriesTest {

  static final Map<String, String> PARAMS =
      Map.of("sitekey", "0x4AAAAAAAB", "pageUrl", "https://a.example/");

  static HikariDataSource dataSource;
  static Sql sql;
  static OperatorQueries queries;
  static SolveJobs jobs;

  @BeforeAll
  static void start() {
    dataSource = new HikariDataSource();
    dataSource.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    dataSource.setMaximumPoolSize(3);
    Schema schema = Schema.named("captchajobs");
    schema.migrate(dataSource);
    jobs =
        new SolveJobs(
            OwnJobRunr.open(dataSource, schema).scheduler(),
            Clock.systemUTC(),
            Duration.ofSeconds(2),
            3,
            JobsReady.NONE);
    queries = new OperatorQueries(dataSource, schema);
    sql = new Sql(dataSource);
  }

  @AfterAll
  static void stop() {
    dataSource.close();
  }

  @BeforeEach
  void noSolves() {
    sql.update("DELETE FROM captchajobs.solve");
  }

  /** A Turnstile solve whose payload hash is the one its enqueue would have stored. */
  static UUID solve(String client, String key, String status, String createdAgo) {
    UUID id = UUID.randomUUID();
    String hash =
        SolveEnqueuer.payloadHash(
            CaptchaType.TURNSTILE, CaptchaTask.of(CaptchaType.TURNSTILE, PARAMS).params(), 0, null);
    sql.update(
        "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
            + " status, created_at, updated_at) VALUES (?, ?, ?, 'TURNSTILE',"
            + " '{\"sitekey\":\"0x4AAAAAAAB\",\"pageUrl\":\"https://a.example/\"}'::jsonb, ?, ?,"
            + " now() - ?::interval, now() - ?::interval)",
        id,
        client,
        key,
        hash,
        status,
        createdAgo,
        createdAgo);
    return id;
  }

  static List<String> keys(SolveFilter filter, int page, int size) {
    return queries.list(filter, page, size).stream().map(SolveRow::businessKey).toList();
  }

  static SolveFilter prefix(String prefix) {
    return new SolveFilter(null, null, null, prefix, null, null, null, null);
  }

  @Test
  void aKeyPrefixIsTakenLiterallySoUnderscoreAndPercentMatchOnlyThemselves() {
    solve("c", "a_1", "QUEUED", "1 second");
    solve("c", "ab1", "QUEUED", "2 seconds");
    solve("c", "a%1", "QUEUED", "3 seconds");
    solve("c", "a\\1", "QUEUED", "4 seconds");

    assertThat(keys(prefix("a_"), 0, 10)).containsExactly("a_1");
    assertThat(keys(prefix("a%"), 0, 10)).containsExactly("a%1");
    assertThat(keys(prefix("a\\"), 0, 10)).containsExactly("a\\1");
    assertThat(keys(prefix("a"), 0, 10)).hasSize(4);
  }

  @Test
  void everyFieldOfTheFilterNarrowsTheList() {
    UUID failed = solve("alice", "f-1", "FAILED", "1 minute");
    sql.update(
        "UPDATE captchajobs.solve SET error_code = 'ERROR_CAPTCHA_UNSOLVABLE',"
            + " error_class = 'UNSOLVABLE', batch = 'b1' WHERE id = ?",
        failed);
    solve("alice", "q-1", "QUEUED", "1 minute");
    solve("bob", "f-2", "FAILED", "3 hours");

    assertThat(
            keys(
                new SolveFilter(SolveStatus.FAILED, null, null, null, null, null, null, null),
                0,
                10))
        .containsExactlyInAnyOrder("f-1", "f-2");
    assertThat(
            keys(
                new SolveFilter(
                    null, null, "ERROR_CAPTCHA_UNSOLVABLE", null, null, null, null, null),
                0,
                10))
        .containsExactly("f-1");
    assertThat(keys(new SolveFilter(null, null, null, null, "b1", null, null, null), 0, 10))
        .containsExactly("f-1");
    assertThat(keys(new SolveFilter(null, null, null, null, null, null, null, "bob"), 0, 10))
        .containsExactly("f-2");
    assertThat(
            keys(
                new SolveFilter(null, CaptchaType.RECAPTCHA_V2, null, null, null, null, null, null),
                0,
                10))
        .isEmpty();
    java.time.Instant hourAgo = java.time.Instant.now().minus(Duration.ofHours(1));
    assertThat(keys(new SolveFilter(null, null, null, null, null, hourAgo, null, null), 0, 10))
        .containsExactlyInAnyOrder("f-1", "q-1");
    assertThat(keys(new SolveFilter(null, null, null, null, null, null, hourAgo, null), 0, 10))
        .containsExactly("f-2");
    SolveRow row = queries.list(prefix("f-1"), 0, 1).get(0);
    assertThat(row.errorClass()).isEqualTo("unsolvable");
    assertThat(row.client()).isEqualTo("alice");
  }

  @Test
  void pagesAreNewestFirstAndNeitherOverlapNorSkip() {
    for (int i = 1; i <= 5; i++) {
      solve("c", "p-" + i, "QUEUED", (10 - i) + " seconds");
    }

    assertThat(keys(SolveFilter.all(), 0, 2)).containsExactly("p-5", "p-4");
    assertThat(keys(SolveFilter.all(), 1, 2)).containsExactly("p-3", "p-2");
    assertThat(keys(SolveFilter.all(), 2, 2)).containsExactly("p-1");
  }

  @Test
  void aBatchIsItsClientsAndItsLatenciesAreTakenByNearestRank() {
    for (int s = 1; s <= 20; s++) {
      UUID id = solve("alice", "lat-" + s, "SOLVED", "1 hour");
      sql.update(
          "UPDATE captchajobs.solve SET batch = 'nightly', submitted_at = now(),"
              + " solved_at = now() + make_interval(secs => ?) WHERE id = ?",
          s,
          id);
    }
    UUID queued = solve("alice", "lat-q", "QUEUED", "1 hour");
    queries.label(queued, "nightly");
    UUID bobs = solve("bob", "bob-1", "FAILED", "1 hour");
    queries.label(bobs, "nightly");

    BatchSummary alice = queries.batch("alice", "nightly").orElseThrow();

    assertThat(queries.batchClients("nightly")).containsExactly("alice", "bob");
    assertThat(alice.total()).isEqualTo(21);
    assertThat(alice.byStatus())
        .containsEntry(SolveStatus.SOLVED, 20L)
        .containsEntry(SolveStatus.QUEUED, 1L)
        .containsEntry(SolveStatus.FAILED, 0L);
    assertThat(alice.latencyP50Seconds()).isEqualTo(10.0);
    assertThat(alice.latencyP95Seconds()).isEqualTo(19.0);
    assertThat(queries.batch("bob", "nightly").orElseThrow().latencyP50Seconds()).isNull();
    assertThat(queries.batch("carol", "nightly")).isEmpty();
  }

  @Test
  void aLabelIsSetOnceAndNeverReplaced() {
    UUID id = solve("c", "label-1", "QUEUED", "1 second");

    queries.label(id, "first");
    queries.label(id, "second");

    assertThat(
            sql.queryForObject(
                "SELECT batch FROM captchajobs.solve WHERE id = ?", String.class, id))
        .isEqualTo("first");
  }

  @Test
  void deadSolvesAreCountedOnlyWithinTheWindow() {
    solve("c", "dead-new", "FAILED", "1 minute");
    solve("c", "dead-old", "FAILED", "2 hours");
    solve("c", "alive", "QUEUED", "1 minute");

    assertThat(queries.failedWithin(Duration.ofHours(1))).isEqualTo(1);
    assertThat(queries.failedWithin(Duration.ofHours(3))).isEqualTo(2);
  }

  @Test
  void aRequeueMakesAFailedSolveAFreshSubmissionKeepingItsErrorAndCreatesItsSubmitJob() {
    UUID id = solve("c", "requeue-1", "FAILED", "1 minute");
    sql.update(
        "UPDATE captchajobs.solve SET error_code = 'ERROR_CAPTCHA_UNSOLVABLE',"
            + " error_class = 'UNSOLVABLE', task_id = '123', submitted_at = now() WHERE id = ?",
        id);

    Optional<Requeued> requeued = queries.requeue(id, jobs);

    assertThat(requeued).contains(new Requeued(id, 1, "requeue-1"));
    Map<String, Object> row =
        sql.queryForMap(
            "SELECT status, error_code, error_class, task_id, submitted_at, requeued_error_code,"
                + " requeued_at, job_id::text AS job_id FROM captchajobs.solve WHERE id = ?",
            id);
    assertThat(row.get("status")).isEqualTo("QUEUED");
    assertThat(row.get("error_code")).isNull();
    assertThat(row.get("error_class")).isNull();
    assertThat(row.get("task_id")).isNull();
    assertThat(row.get("submitted_at")).isNull();
    assertThat(row.get("requeued_error_code")).isEqualTo("ERROR_CAPTCHA_UNSOLVABLE");
    assertThat(row.get("requeued_at")).isNotNull();
    assertThat(
            sql.queryForObject(
                "SELECT state FROM captchajobs.cj_jobrunr_jobs WHERE id = ?",
                String.class,
                row.get("job_id")))
        .isEqualTo("ENQUEUED");
    assertThat(
            sql.queryForList(
                "SELECT detail FROM captchajobs.solve_event WHERE solve_id = ? AND kind = 'requeue'",
                String.class,
                id))
        .containsExactly("requeue 1");
    // not FAILED any more: a second requeue changes nothing
    assertThat(queries.requeue(id, jobs)).isEmpty();
  }

  @Test
  void aFailedSolveWhoseRowNoLongerRebuildsItsRequestIsRefusedAndNothingChanges() {
    UUID id = solve("c", "scrubbed-1", "FAILED", "1 minute");
    // what the database leaves when it removed a proxy at the final status: another payload
    sql.update("UPDATE captchajobs.solve SET payload_hash = repeat('0', 64) WHERE id = ?", id);
    long jobsBefore =
        sql.queryForObject("SELECT count(*) FROM captchajobs.cj_jobrunr_jobs", Long.class);

    assertThatThrownBy(() -> queries.requeue(id, jobs))
        .isInstanceOf(OperatorQueries.NotRebuildableException.class)
        .hasMessageContaining(id.toString())
        .hasMessageContaining("new business key");
    assertThat(
            sql.queryForObject(
                "SELECT status FROM captchajobs.solve WHERE id = ?", String.class, id))
        .isEqualTo("FAILED");
    assertThat(sql.queryForObject("SELECT count(*) FROM captchajobs.cj_jobrunr_jobs", Long.class))
        .isEqualTo(jobsBefore);
  }
}
