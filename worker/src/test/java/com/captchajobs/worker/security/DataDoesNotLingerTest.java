package com.captchajobs.worker.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.upkeep.Retention;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Secrets in request parameters are gone from the database once a solve is final, and the retention
 * pass deletes old rows, only old ones, on one node at a time. No {@code pg_dump} binary ships with
 * the embedded PostgreSQL, so "the dump" is every column of every row of every table as text, read
 * through SQL.
 */
class DataDoesNotLingerTest {

  static final String KEY = "lingerKeyLINGERkeyLINGERkey01234";
  static final String PROXY_PASSWORD = "Pr0xyPassw0rdThatMustGo";
  static final String COOKIE = "sessionCookieThatMustGo";

  static CaptchaAiSimulator sim;
  static WorkerNode node;
  static JdbcTemplate jdbc;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    node =
        WorkerNode.start(
            EmbeddedPostgresSupport.newDatabase(),
            sim.baseUrl(),
            KEY,
            Map.of("captchaai.first-poll-wait.TURNSTILE", "1s"));
    jdbc = new JdbcTemplate(node.bean(DataSource.class));
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  @Test
  void proxyCredentialsAndCookiesAreAbsentFromEveryTableOnceTheSolveIsFinal() {
    SolveProbe solves = node.probe();
    UUID id =
        solves.enqueue(
            "linger-1",
            CaptchaType.TURNSTILE,
            Map.of(
                "sitekey",
                "0x4AAAAAAADnPIDROrmt1Wwj",
                "pageUrl",
                SolveProbe.pageUrl("linger-1"),
                "proxy",
                "user:" + PROXY_PASSWORD + "@203.0.113.7:8080",
                "proxyType",
                "HTTP",
                "cookies",
                "sid=" + COOKIE));
    assertThat(params(id)).contains(PROXY_PASSWORD);

    solves.awaitStatus(id, SolveStatus.SOLVED);

    List<String> dump = everyRow();
    assertThat(dump).isNotEmpty();
    assertThat(dump).noneMatch(row -> row.contains(PROXY_PASSWORD) || row.contains(COOKIE));
    assertThat(params(id))
        .contains("sitekey")
        .contains("proxyType")
        .doesNotContain("\"proxy\"", "cookies");
  }

  @Test
  void theRetentionPassDeletesOnlyWhatIsOlderThanTheRetention() {
    UUID oldFinal = insertSolve("old-final", "CLAIMED", "8 days");
    UUID oldUnfinished = insertSolve("old-queued", "QUEUED", "8 days");
    UUID recentFinal = insertSolve("recent-final", "FAILED", "6 days");
    insertPoll(oldFinal, "8 days");
    insertPoll(recentFinal, "6 days");
    insertHandoff(oldFinal, "8 days");
    insertHandoff(recentFinal, "6 days");

    Retention.Deleted deleted = node.bean(Retention.class).run().orElseThrow();

    assertThat(deleted.solves()).isGreaterThanOrEqualTo(1);
    assertThat(ids("SELECT id FROM captchajobs.solve"))
        .doesNotContain(oldFinal)
        .contains(oldUnfinished, recentFinal);
    assertThat(ids("SELECT solve_id FROM captchajobs.poll"))
        .doesNotContain(oldFinal)
        .contains(recentFinal);
    assertThat(ids("SELECT solve_id FROM captchajobs.slot_handoff"))
        .doesNotContain(oldFinal)
        .contains(recentFinal);
  }

  @Test
  void theRetentionPassMeasuresAgeOnTheDatabaseClockToTheMinute() {
    // ages relative to the database's now(): the node's clock plays no part
    UUID justOlder = insertSolve("just-older", "EXPIRED", "7 days 2 minutes");
    UUID justYounger = insertSolve("just-younger", "EXPIRED", "6 days 23 hours 58 minutes");

    node.bean(Retention.class).run().orElseThrow();

    assertThat(ids("SELECT id FROM captchajobs.solve"))
        .doesNotContain(justOlder)
        .contains(justYounger);
  }

  @Test
  void theRetentionPassOn100000OldSolvesAndTheirPollRowsIsMeasured() {
    jdbc.update(
        "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
            + " status, created_at, updated_at)"
            + " SELECT gen_random_uuid(), 'bulk', 'bulk-' || g, 'TURNSTILE', '{}'::jsonb,"
            + " repeat('0', 64), 'CLAIMED', now() - interval '9 days', now() - interval '9 days'"
            + " FROM generate_series(1, 100000) g");
    jdbc.update(
        "INSERT INTO captchajobs.poll (solve_id, submit_no, poll_no, intended_at, called_at,"
            + " outcome) SELECT id, 1, 1, updated_at, updated_at, 'READY'"
            + " FROM captchajobs.solve WHERE client = 'bulk'");
    jdbc.execute("ANALYZE captchajobs.solve");
    jdbc.execute("ANALYZE captchajobs.poll");

    long start = System.nanoTime();
    Retention.Deleted deleted = node.bean(Retention.class).run().orElseThrow();
    long millis = (System.nanoTime() - start) / 1_000_000;

    System.out.printf(
        "[retention] deleted %d solves, %d poll rows, %d hand-off rows in %d ms%n",
        deleted.solves(), deleted.polls(), deleted.handoffs(), millis);
    assertThat(deleted.solves()).isGreaterThanOrEqualTo(100_000);
    assertThat(deleted.polls()).isGreaterThanOrEqualTo(100_000);
    assertThat(
            jdbc.queryForObject(
                "SELECT count(*) FROM captchajobs.solve WHERE client = 'bulk'", Integer.class))
        .isZero();
  }

  private static UUID insertSolve(String key, String status, String age) {
    UUID id = UUID.randomUUID();
    jdbc.update(
        "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
            + " status, created_at, updated_at) VALUES (?, 'retention', ?, 'TURNSTILE', '{}',"
            + " repeat('0', 64), ?, now() - ?::interval, now() - ?::interval)",
        id,
        key,
        status,
        age,
        age);
    return id;
  }

  private static void insertPoll(UUID id, String age) {
    jdbc.update(
        "INSERT INTO captchajobs.poll (solve_id, submit_no, poll_no, intended_at, called_at,"
            + " outcome) VALUES (?, 1, 1, now() - ?::interval, now() - ?::interval, 'READY')",
        id,
        age,
        age);
  }

  private static void insertHandoff(UUID id, String age) {
    jdbc.update(
        "INSERT INTO captchajobs.slot_handoff (solve_id, freed_at, submit_at)"
            + " VALUES (?, now() - ?::interval, now() - ?::interval)",
        id,
        age,
        age);
  }

  private static String params(UUID id) {
    return jdbc.queryForObject(
        "SELECT params::text FROM captchajobs.solve WHERE id = ?", String.class, id);
  }

  private static List<UUID> ids(String sql) {
    return jdbc.queryForList(sql, UUID.class);
  }

  /** Every column of every row of every table, as text. */
  private static List<String> everyRow() {
    List<String> tables =
        jdbc.queryForList(
            "SELECT table_schema || '.' || table_name FROM information_schema.tables"
                + " WHERE table_type = 'BASE TABLE'"
                + " AND table_schema NOT IN ('pg_catalog', 'information_schema')",
            String.class);
    assertThat(tables).contains("captchajobs.solve", "captchajobs.cj_jobrunr_jobs");
    List<String> rows = new ArrayList<>();
    for (String table : tables) {
      rows.addAll(jdbc.queryForList("SELECT t::text FROM " + table + " t", String.class));
    }
    return rows;
  }
}
