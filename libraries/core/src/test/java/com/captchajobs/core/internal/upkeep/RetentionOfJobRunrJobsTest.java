package com.captchajobs.core.internal.upkeep;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.testing.EngineNode;
import com.captchajobs.core.testing.Sql;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * JobRunr keeps FAILED jobs for ever, and our jobs' names and labels carry business keys: the
 * retention pass deletes our JobRunr jobs (solve jobs and webhook deliveries) not updated for the
 * retention, whatever their state but PROCESSING.
 */
class RetentionOfJobRunrJobsTest {

  private static final String KEY = "retentionKeyRETENTIONkey01234567";

  static CaptchaAiSimulator sim;
  static EngineNode node;
  static Sql sql;

  @BeforeAll
  static void start() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).build().start();
    node =
        EngineNode.onFreshDatabase(
            sim,
            KEY,
            Map.of(
                "captchajobs.worker.enabled", "false",
                "captchajobs.retention", "7d"));
    sql = new Sql(node.dataSource());
  }

  @AfterAll
  static void stop() {
    node.close();
    sim.close();
  }

  @Test
  void jobsOfEveryStateButProcessingOlderThanTheRetentionAreDeletedWithTheirBusinessKeys() {
    UUID oldFailed = insertJob("FAILED", "8 days", "Submit TURNSTILE old-failed-key");
    UUID oldSucceeded = insertJob("SUCCEEDED", "8 days", "Poll TURNSTILE old-done-key #3");
    UUID oldProcessing = insertJob("PROCESSING", "8 days", "Submit TURNSTILE old-running-key");
    UUID recentFailed = insertJob("FAILED", "6 days", "Submit TURNSTILE recent-failed-key");

    Retention.Deleted deleted =
        new Retention(node.dataSource(), Schema.defaultSchema(), Duration.ofDays(7))
            .run()
            .orElseThrow();

    assertThat(deleted.jobs()).isEqualTo(2);
    assertThat(ids()).doesNotContain(oldFailed, oldSucceeded).contains(oldProcessing, recentFailed);
    assertThat(
            sql.queryForObject(
                "SELECT count(*) FROM captchajobs.cj_jobrunr_jobs WHERE jobasjson LIKE"
                    + " '%old-failed-key%'",
                Long.class))
        .isZero();
  }

  private static UUID insertJob(String state, String age, String name) {
    UUID id = UUID.randomUUID();
    sql.update(
        "INSERT INTO captchajobs.cj_jobrunr_jobs (id, version, jobasjson, jobsignature, state,"
            + " createdat, updatedat) VALUES (?, 1, ?, 'retention-test', ?,"
            + " (now() - ?::interval) AT TIME ZONE 'UTC', (now() - ?::interval) AT TIME ZONE"
            + " 'UTC')",
        id.toString(),
        "{\"jobName\":\"" + name + "\"}",
        state,
        age,
        age);
    return id;
  }

  private static List<UUID> ids() {
    return sql.queryForList("SELECT id FROM captchajobs.cj_jobrunr_jobs", String.class).stream()
        .map(UUID::fromString)
        .toList();
  }
}
