package com.captchajobs.core.internal.jobrunr;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.jobrunr.storage.StorageProviderUtils.DatabaseOptions;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Our JobRunr tables on a database that a host's JobRunr (without a table prefix, the default)
 * meets after us: JobRunr looks in every schema for a table whose name contains {@code
 * jobrunr_migrations}, and must never find one of ours.
 */
class JobRunrTablesTest {

  PGSimpleDataSource dataSource;

  @BeforeEach
  void freshDatabase() {
    dataSource = new PGSimpleDataSource();
    dataSource.setUrl(EmbeddedPostgresSupport.newDatabase());
  }

  @Test
  void aHostsFirstJobRunrStartingAfterUsCreatesItsOwnTablesWithoutAnySetting() throws Exception {
    try (CaptchaJobs ours = CaptchaJobs.builder().dataSource(dataSource).build()) {
      PostgresStorageProvider hosts = new PostgresStorageProvider(dataSource);
      hosts.close();
    }

    assertThat(relations("public")).contains("jobrunr_jobs", "jobrunr_migrations");
    assertThat(relations("captchajobs"))
        .contains("cj_jobrunr_jobs", "cj_jobrunr_jobs_stats", "cj_jobrunr_script_history")
        .noneMatch(name -> name.contains("jobrunr_migrations"))
        .noneMatch(name -> name.startsWith("jobrunr_"));
  }

  @Test
  void ourTablesHoldEveryScriptOfTheJobRunrOnTheClassPathAndASecondStartAppliesNone()
      throws Exception {
    JobRunrTables tables = new JobRunrTables("captchajobs", "cj_", "");
    execute("CREATE SCHEMA captchajobs");

    tables.migrate(dataSource);
    tables.migrate(dataSource);

    assertThat(strings("SELECT script FROM captchajobs.cj_jobrunr_script_history ORDER BY 1"))
        .hasSize(16)
        .startsWith("v001__create_job_table.sql")
        .endsWith("v016__alter_jobs_stats_add_awaiting_jobs.sql");
  }

  @Test
  void tablesOfTheEarlierLayoutMoveForwardWithTheirRowsAndAHostJobRunrThenStarts()
      throws Exception {
    CaptchaJobs.builder().dataSource(dataSource).build().close();
    execute("DROP VIEW captchajobs.cj_jobrunr_jobs_stats");
    for (String table :
        strings(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'captchajobs'"
                + " AND tablename LIKE 'cj\\_%'")) {
      execute("DROP TABLE captchajobs." + table);
    }
    // the earlier layout, as JobRunr's own table creator made it
    new PostgresStorageProvider(dataSource, "captchajobs.", DatabaseOptions.CREATE).close();
    new PostgresStorageProvider(dataSource, "captchajobs.webhook_", DatabaseOptions.CREATE).close();
    execute(
        "INSERT INTO captchajobs.jobrunr_metadata (id, name, owner, value, createdAt, updatedAt)"
            + " VALUES ('earlier-row', 'earlier', 'test', 'kept', now(), now())");

    try (CaptchaJobs ours = CaptchaJobs.builder().dataSource(dataSource).build()) {
      new PostgresStorageProvider(dataSource).close();
    }
    new JobRunrTables("captchajobs", "cj_webhook_", "webhook_").migrate(dataSource);

    assertThat(
            strings("SELECT value FROM captchajobs.cj_jobrunr_metadata WHERE id = 'earlier-row'"))
        .containsExactly("kept");
    assertThat(relations("captchajobs"))
        .contains("cj_jobrunr_jobs", "cj_webhook_jobrunr_jobs", "cj_webhook_jobrunr_script_history")
        .noneMatch(name -> name.contains("jobrunr_migrations"))
        .noneMatch(name -> name.startsWith("jobrunr_") || name.startsWith("webhook_"));
    assertThat(strings("SELECT script FROM captchajobs.cj_jobrunr_script_history")).hasSize(16);
    assertThat(relations("public")).contains("jobrunr_jobs");
  }

  private List<String> relations(String schema) throws SQLException {
    return strings(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE n.nspname = '"
            + schema
            + "'");
  }

  private List<String> strings(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  private void execute(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
