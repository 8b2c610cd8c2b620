package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Solves;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An app node configured the way an app node is documented (a database and API tokens, no key)
 * beside a real worker on an 8-thread plan: it only enqueues. It starts no simulator, leaves the
 * fleet cap alone, and every solve goes to the worker's provider.
 */
class HalfConfiguredNodeTest {

  static final String KEY = "halfconf0halfconf0halfconf0half8";
  static final String TOKEN = "half-configured-token-0123456789";

  @Test
  void anAppNodeWithADatabaseAndNoKeyOnlyEnqueuesAndTheWorkersProviderSeesEverySubmit() {
    try (CaptchaAiSimulator simulator =
        CaptchaAiSimulator.builder().account(KEY, 8).timeScale(0.05).build().start()) {
      String db = EmbeddedPostgresSupport.newDatabase();
      try (WorkerNode worker =
              WorkerNode.start(
                  db,
                  simulator.baseUrl(),
                  KEY,
                  Map.of("captchaai.threads", "8", "captchaai.first-poll-wait.TURNSTILE", "1s"));
          ConfigurableApplicationContext app =
              AppApplication.builder()
                  .properties(
                      Map.of(
                          "spring.datasource.url",
                          db,
                          "server.port",
                          "0",
                          "management.server.port",
                          "0",
                          "server.address",
                          "127.0.0.1",
                          "captchajobs.api.tokens",
                          TOKEN))
                  .run()) {
        JdbcTemplate jdbc = new JdbcTemplate(app.getBean(DataSource.class));

        assertThat(app.containsBean("captchaJobsSandboxParts")).isFalse();
        assertThat(app.getEnvironment().getProperty("captchajobs.sandbox.active")).isNull();
        assertThat(app.getBean(CaptchaJobs.class).runsWorker()).isFalse();
        assertThat(jdbc.queryForObject("SELECT capacity FROM captchajobs.gate", Integer.class))
            .isEqualTo(8);

        Api api = new Api(TestApps.port(app), TOKEN);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          HttpResponse<String> r = api.post("/api/solves", RestFlowTest.turnstile("half-" + i));
          assertThat(r.statusCode()).isEqualTo(202);
          ids.add(UUID.fromString(Api.json(r).get("id").stringValue()));
        }
        Solves solves = app.getBean(Solves.class);
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(100))
            .until(
                () ->
                    ids.stream().allMatch(id -> solves.status(id).status() == SolveStatus.SOLVED));

        assertThat(simulator.stats(KEY).acceptedSubmits()).isEqualTo(6);
        assertThat(jdbc.queryForObject("SELECT capacity FROM captchajobs.gate", Integer.class))
            .isEqualTo(8);
      }
    }
  }

  @Test
  void anAppNodeWithAKeyButNoDatabaseRefusesToStartInsteadOfImprovising() {
    assertThatThrownBy(
            () ->
                AppApplication.builder()
                    .properties(
                        Map.of(
                            "server.port",
                            "0",
                            "management.server.port",
                            "0",
                            "captchaai.api-key",
                            KEY))
                    .run()
                    .close())
        .hasStackTraceContaining("spring.datasource.url is required");
  }

  @Test
  void aWorkerWithoutAKeyRefusesToStartNamingThePropertyAndTheVariable() {
    assertThatThrownBy(
            () ->
                AppApplication.builder()
                    .properties(
                        Map.of(
                            "spring.datasource.url",
                            EmbeddedPostgresSupport.newDatabase(),
                            "server.port",
                            "0",
                            "management.server.port",
                            "0",
                            "captchajobs.api.tokens",
                            TOKEN,
                            "captchajobs.worker.enabled",
                            "true"))
                    .run()
                    .close())
        .hasStackTraceContaining("captchaai.api-key")
        .hasStackTraceContaining("CAPTCHAAI_API_KEY");
  }
}
