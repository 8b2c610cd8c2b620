package com.example.host;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerProcess;
import com.example.hostcontract.Hosts;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A host meeting a database on which a CaptchaJobs worker node already created its schema. Its
 * Flyway starts as if we were not there, and so does its JobRunr, with no setting: our tables are
 * named {@code cj_jobrunr_*}, which its lookup of {@code jobrunr_migrations} in every schema never
 * matches.
 */
class HostStartingAfterOurWorkerTest {

  static final String KEY = "afterwkr0afterwkr0afterwkr0after";

  static CaptchaAiSimulator simulator;
  static WorkerProcess worker;
  static String url;

  @BeforeAll
  static void startOurWorkerOnAFreshDatabase() {
    simulator = CaptchaAiSimulator.builder().account(KEY, 2).timeScale(0.1).build().start();
    url = EmbeddedPostgresSupport.newDatabase();
    worker =
        WorkerProcess.startJar(
                Hosts.WORKER_JAR,
                "after-worker",
                url,
                simulator.baseUrl(),
                KEY,
                Map.of("captchaai.threads", "2"))
            .awaitUp();
  }

  @AfterAll
  static void stop() {
    worker.close();
    simulator.close();
  }

  @Test
  void aHostsFlywayStartingAfterOurWorkerKeepsItsOwnHistoryInPublic() {
    Map<String, Object> props = new HashMap<>(GuestInAHostAppTest.hostProperties(url));
    props.put(
        "spring.autoconfigure.exclude",
        "org.jobrunr.spring.autoconfigure.JobRunrAutoConfiguration,"
            + "org.jobrunr.spring.autoconfigure.storage.JobRunrSqlStorageAutoConfiguration,"
            + "org.jobrunr.spring.autoconfigure.metrics.JobRunrMetricsAutoConfiguration");
    try (ConfigurableApplicationContext host =
        new SpringApplicationBuilder(HostApplication.class).properties(props).run()) {
      JdbcTemplate jdbc = new JdbcTemplate(host.getBean(DataSource.class));

      Hosts.assertTheHostsFlywayHistoryHoldsOnlyItsOwnMigration(jdbc);
      assertThat(jdbc.queryForObject("SELECT count(*) FROM public.host_order", Long.class))
          .isZero();
    }
  }

  @Test
  void aHostsFirstEverJobRunrStartingAfterOurWorkerCreatesItsOwnTablesInPublicWithNoSetting() {
    try (ConfigurableApplicationContext host =
        new SpringApplicationBuilder(HostApplication.class)
            .properties(GuestInAHostAppTest.hostProperties(url))
            .run()) {
      JdbcTemplate jdbc = new JdbcTemplate(host.getBean(DataSource.class));

      assertThat(host.getEnvironment().getProperty("jobrunr.database.table-prefix")).isNull();
      Hosts.assertTheHostsJobRunrTablesAreInPublic(jdbc);
      UUID id =
          host.getBean(JobRequestScheduler.class).enqueue(new HostJobRequest("after")).asUUID();
      assertThat(
              jdbc.queryForObject(
                  "SELECT count(*) FROM public.jobrunr_jobs WHERE id = ?",
                  Long.class,
                  id.toString()))
          .isOne();
    }
  }
}
