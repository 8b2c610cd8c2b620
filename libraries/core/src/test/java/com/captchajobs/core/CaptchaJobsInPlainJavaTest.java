package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.model.ClaimedToken;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.SolveSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * CaptchaJobs without Spring: an enqueue-only instance and a worker instance on one database, the
 * way two plain Java processes of a fleet would share it. Nothing of Spring is on this class path.
 */
class CaptchaJobsInPlainJavaTest {

  static final String KEY = "plainjava0plainjava0plainjava012";

  CaptchaAiSimulator simulator;
  PGSimpleDataSource dataSource;

  @BeforeEach
  void start() {
    simulator = CaptchaAiSimulator.builder().account(KEY, 3).timeScale(0.1).build().start();
    dataSource = new PGSimpleDataSource();
    dataSource.setUrl(EmbeddedPostgresSupport.newDatabase());
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  @Test
  void noSpringClassIsOnTheClassPathOfTheCore() {
    assertThatThrownBy(() -> Class.forName("org.springframework.context.ApplicationContext"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void aSolveEnqueuedOnAnInstanceWithoutKeyIsSolvedByAWorkerInstanceAndClaimedOnce()
      throws Exception {
    try (CaptchaJobs worker =
            CaptchaJobs.builder()
                .dataSource(dataSource)
                .apiKey(KEY)
                .baseUrl(simulator.baseUrl())
                .settings(
                    SolveSettings.builder()
                        .threads(3)
                        .firstPollWait(CaptchaType.TURNSTILE, Duration.ofSeconds(1))
                        .build())
                .nodeName("plain-worker")
                .build();
        CaptchaJobs app = CaptchaJobs.builder().dataSource(dataSource).build()) {
      assertThat(worker.runsWorker()).isTrue();
      assertThat(app.runsWorker()).isFalse();

      Solves solves = app.solves();
      UUID id =
          solves.enqueue(
              SolveRequest.turnstile(
                  "plain-1", "0x4AAAAAAADnPIDROrmt1Wwj", "https://shop.example.test/plain-1"));
      SolveStatusView solved = solves.await(id, Duration.ofSeconds(60)).get();

      assertThat(solved.status()).isEqualTo(SolveStatus.SOLVED);
      ClaimedToken token = solves.claim(id);
      assertThat(token.token()).isNotBlank();
      assertThatThrownBy(() -> solves.claim(id)).isInstanceOf(TokenAlreadyClaimedException.class);
      assertThat(simulator.stats(KEY).acceptedSubmits()).isEqualTo(1);
    }
  }

  @Test
  void everyTableLivesInTheCaptchajobsSchemaAndNothingInPublic() throws Exception {
    try (CaptchaJobs app = CaptchaJobs.builder().dataSource(dataSource).build()) {
      assertThat(app.schema()).isEqualTo("captchajobs");
    }
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT table_schema, count(*) FROM information_schema.tables"
                    + " WHERE table_schema IN ('public', 'captchajobs') GROUP BY table_schema")) {
      int inPublic = 0;
      int inOurs = 0;
      while (rs.next()) {
        if (rs.getString(1).equals("public")) {
          inPublic = rs.getInt(2);
        } else {
          inOurs = rs.getInt(2);
        }
      }
      assertThat(inPublic).isZero();
      assertThat(inOurs)
          .isGreaterThanOrEqualTo(12); // ours, Flyway's history, JobRunr's five and a view
    }
  }

  @Test
  void aSettingThatCannotWorkIsRefusedNamingTheBuilderMethodBeforeAnythingStarts() {
    assertThatThrownBy(
            () ->
                CaptchaJobs.builder()
                    .dataSource(dataSource)
                    .jobPollInterval(Duration.ofSeconds(2))
                    .build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "WorkerSettings.pollInterval(Duration) must be at least 5s (JobRunr's minimum on SQL"
                + " storage)");
    assertThatThrownBy(
            () ->
                CaptchaJobs.builder()
                    .dataSource(dataSource)
                    .dashboard(0, "ops", "eleven-char")
                    .build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "DashboardSettings.password(String) must be at least 12 characters (it has 11)");
    assertThatThrownBy(
            () ->
                CaptchaJobs.builder()
                    .dataSource(dataSource)
                    .webhookAllowedHosts(java.util.List.of("recv:http"))
                    .build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("WebhookSettings.allowedHosts(Collection)")
        .hasMessageContaining("recv:http")
        .hasMessageNotContaining("captchajobs.webhook.allowed-hosts");
    assertThatThrownBy(
            () ->
                CaptchaJobs.builder()
                    .dataSource(dataSource)
                    .apiKey(KEY)
                    .retention(Duration.ofHours(1))
                    .settings(
                        SolveSettings.builder()
                            .tokenTtl(CaptchaType.TURNSTILE, Duration.ofHours(2))
                            .build())
                    .build())
        .hasMessage(
            "RetentionSettings.retention(Duration) (PT1H) must be longer than"
                + " tokenTtl(CaptchaType, Duration).TURNSTILE (PT2H)");
  }

  @Test
  void anInvalidSchemaNameIsRefusedNamingTheProperty() {
    assertThatThrownBy(
            () -> CaptchaJobs.builder().dataSource(dataSource).schema("Bad-Name").build())
        .hasMessageContaining("captchajobs.schema");
  }

  @Test
  void aUserWithoutCreateSchemaRightGetsAClearMessage() throws Exception {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE guest_app LOGIN PASSWORD 'guest'");
      s.execute("REVOKE CREATE ON DATABASE " + c.getCatalog() + " FROM PUBLIC");
    }
    PGSimpleDataSource guest = new PGSimpleDataSource();
    guest.setUrl(dataSource.getUrl().replace("?user=postgres", ""));
    guest.setUser("guest_app");
    guest.setPassword("guest");

    assertThatThrownBy(() -> CaptchaJobs.builder().dataSource(guest).build())
        .hasMessageContaining("captchajobs.schema")
        .hasMessageContaining("CREATE SCHEMA captchajobs AUTHORIZATION guest_app");
  }

  @Test
  void aDatabaseUserNamedLikeTheSchemaIsRefusedNamingTheCauseAndTheFixAndNothingIsCreated()
      throws Exception {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE captchajobs LOGIN PASSWORD 'same-name'");
      s.execute("GRANT CREATE ON DATABASE " + c.getCatalog() + " TO captchajobs");
    }
    PGSimpleDataSource sameName = new PGSimpleDataSource();
    sameName.setUrl(dataSource.getUrl().replace("?user=postgres", ""));
    sameName.setUser("captchajobs");
    sameName.setPassword("same-name");

    assertThatThrownBy(() -> CaptchaJobs.builder().dataSource(sameName).build())
        .hasMessageContaining("search_path")
        .hasMessageContaining("database user is named 'captchajobs'")
        .hasMessageContaining("currentSchema=public in the JDBC URL")
        .hasMessageContaining("ALTER ROLE captchajobs SET search_path = public");
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname = 'captchajobs'")) {
      rs.next();
      assertThat(rs.getInt(1)).isZero();
    }
  }

  @Test
  void aSearchPathNamingTheSchemaInCapitalsIsRefusedBecausePostgresqlFoldsItIntoTheSchema()
      throws Exception {
    PGSimpleDataSource capitals = new PGSimpleDataSource();
    capitals.setUrl(dataSource.getUrl());
    capitals.setUser(dataSource.getUser());
    capitals.setOptions("-c search_path=CAPTCHAJOBS,public");

    assertThatThrownBy(() -> CaptchaJobs.builder().dataSource(capitals).build())
        .hasMessageContaining("search_path (CAPTCHAJOBS,public)")
        .hasMessageContaining("into schema 'captchajobs'")
        .hasMessageContaining("currentSchema=public in the JDBC URL");

    // what the guard prevents: PostgreSQL resolves the unquoted CAPTCHAJOBS to our schema, so an
    // application's unqualified table would land in it
    try (Connection c = capitals.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA captchajobs");
      s.execute("CREATE TABLE hosts_own_table (id int)");
      try (ResultSet rs = s.executeQuery("SELECT to_regclass('captchajobs.hosts_own_table')")) {
        rs.next();
        assertThat(rs.getString(1)).isNotNull();
      }
    }
  }
}
