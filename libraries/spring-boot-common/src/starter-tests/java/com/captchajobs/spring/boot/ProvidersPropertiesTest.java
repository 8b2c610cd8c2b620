package com.captchajobs.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.model.ProviderRow;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.model.SolveStatusView;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.spring.boot.metrics.CaptchaJobsMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * {@code captchajobs.providers.<name>.*} (docs/providers.md): bound into the worker's providers,
 * the key from {@code CAPTCHAJOBS_PROVIDERS_<NAME>_APIKEY}, a missing value refused by its name.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProvidersPropertiesTest {

  private static final String KEY = "provprovprovprovprovprovprovprov";
  private static final String BACKUP_KEY = "backbackbackbackbackbackbackback";

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
          .withConfiguration(
              AutoConfigurations.of(
                  ThisBoot.DATA_SOURCE_AUTO_CONFIGURATION,
                  CaptchaJobsMetricsAutoConfiguration.class,
                  CaptchaJobsAutoConfiguration.class));

  @Test
  void aProviderWithoutThreadsRefusesTheWorkerNamingTheProperty() {
    runner
        .withPropertyValues(
            "spring.datasource.url=" + EmbeddedPostgresSupport.newDatabase(),
            "captchajobs.worker.enabled=true",
            "captchaai.api-key=" + KEY,
            "captchaai.base-url=http://127.0.0.1:9",
            "captchajobs.providers.backup.base-url=http://127.0.0.1:9",
            "captchajobs.providers.backup.api-key=" + BACKUP_KEY)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context)
                  .getFailure()
                  .rootCause()
                  .isInstanceOf(MissingPropertyException.class)
                  .hasMessageContaining("captchajobs.providers.backup.threads");
            });
  }

  @Test
  void aValueTheSettingsRefuseIsNamedByItsProperty() {
    runner
        .withPropertyValues(
            "spring.datasource.url=" + EmbeddedPostgresSupport.newDatabase(),
            "captchajobs.worker.enabled=true",
            "captchaai.api-key=" + KEY,
            "captchaai.base-url=http://127.0.0.1:9",
            "captchajobs.providers.backup.base-url=http://127.0.0.1:9",
            "captchajobs.providers.backup.api-key=" + BACKUP_KEY,
            "captchajobs.providers.backup.threads=0")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context)
                  .getFailure()
                  .rootCause()
                  .hasMessageContaining("captchajobs.providers.backup.threads must be at least 1")
                  .hasMessageNotContaining(BACKUP_KEY);
            });
  }

  @Test
  void aBackupWithItsKeyFromTheEnvironmentIsAProviderOfTheFleetWithItsSpendMeteredFromStartup() {
    try (CaptchaAiSimulator primary = CaptchaAiSimulator.builder().account(KEY, 2).build().start();
        CaptchaAiSimulator backup =
            CaptchaAiSimulator.builder().name("backup").account(BACKUP_KEY, 3).build().start()) {
      runner
          .withInitializer(
              context ->
                  context
                      .getEnvironment()
                      .getPropertySources()
                      .addFirst(
                          new SystemEnvironmentPropertySource(
                              "test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                              Map.of("CAPTCHAJOBS_PROVIDERS_BACKUP_APIKEY", BACKUP_KEY))))
          .withPropertyValues(
              "spring.datasource.url=" + EmbeddedPostgresSupport.newDatabase(),
              "captchajobs.worker.enabled=true",
              "captchajobs.worker.shutdown-wait=1s",
              "captchaai.api-key=" + KEY,
              "captchaai.base-url=" + primary.baseUrl(),
              "captchaai.threads=2",
              "captchajobs.providers.backup.base-url=" + backup.baseUrl(),
              "captchajobs.providers.backup.threads=3",
              "captchajobs.providers.backup.role=backup",
              "captchajobs.providers.backup.overflow-after=20s",
              "captchajobs.providers.backup.price.TURNSTILE=1.45",
              "captchajobs.providers.backup.daily-budget=5.00")
          .run(
              context -> {
                assertThat(context).hasNotFailed();
                List<ProviderRow> rows =
                    context.getBean(CaptchaJobs.class).operations().providers();
                assertThat(rows)
                    .extracting(ProviderRow::name, ProviderRow::role, ProviderRow::threads)
                    .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("captchaai", "PRIMARY", 2),
                        org.assertj.core.groups.Tuple.tuple("backup", "BACKUP", 3));
                assertThat(rows.get(1).dailyBudget()).isEqualByComparingTo("5.00");
                assertThat(rows.get(1).spentToday()).isEqualByComparingTo(BigDecimal.ZERO);
                MeterRegistry registry = context.getBean(MeterRegistry.class);
                context
                    .getBean(
                        "captchaJobsGauges", io.micrometer.core.instrument.binder.MeterBinder.class)
                    .bindTo(registry);
                assertThat(
                        registry
                            .get("captchajobs.spend")
                            .tag("provider", "backup")
                            .tag("type", "TURNSTILE")
                            .counter()
                            .count())
                    .isZero();
                assertThat(
                        registry
                            .get("captchajobs.providers.threads")
                            .tag("provider", "backup")
                            .gauge()
                            .value())
                    .isEqualTo(3.0);
                assertThat(
                        registry
                            .get("captchajobs.providers.daily.budget")
                            .tag("provider", "backup")
                            .gauge()
                            .value())
                    .isEqualTo(5.0);
                assertThat(
                        registry
                            .get("captchajobs.providers.in.flight")
                            .tag("provider", "captchaai")
                            .gauge()
                            .value())
                    .isZero();
              });
    }
  }

  @Test
  void solvesAnsweredAtEachProviderAreMeteredWithThatProvider() {
    try (CaptchaAiSimulator primary =
            CaptchaAiSimulator.builder()
                .account(KEY, 1)
                .solveTime("turnstile", Duration.ofSeconds(2), Duration.ofSeconds(3))
                .build()
                .start();
        CaptchaAiSimulator backup =
            CaptchaAiSimulator.builder()
                .name("backup")
                .account(BACKUP_KEY, 3)
                .solveTime("turnstile", Duration.ofSeconds(2), Duration.ofSeconds(3))
                .build()
                .start()) {
      runner
          .withPropertyValues(
              "spring.datasource.url=" + EmbeddedPostgresSupport.newDatabase(),
              "captchajobs.worker.enabled=true",
              "captchajobs.worker.shutdown-wait=1s",
              "captchaai.api-key=" + KEY,
              "captchaai.base-url=" + primary.baseUrl(),
              "captchaai.threads=1",
              "captchaai.first-poll-wait.TURNSTILE=1s",
              "captchajobs.providers.backup.base-url=" + backup.baseUrl(),
              "captchajobs.providers.backup.api-key=" + BACKUP_KEY,
              "captchajobs.providers.backup.threads=3",
              "captchajobs.providers.backup.role=pool")
          .run(
              context -> {
                assertThat(context).hasNotFailed();
                Solves solves = context.getBean(CaptchaJobs.class).solves();
                MeterRegistry registry = context.getBean(MeterRegistry.class);
                List<UUID> ids = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                  ids.add(
                      solves.enqueue(
                          SolveRequest.turnstile(
                              "metered-" + i,
                              "0x4AAAAAAADnPIDROrmt1Wwj",
                              "https://shop.example.test/metered-" + i)));
                }
                await()
                    .atMost(Duration.ofSeconds(60))
                    .until(
                        () ->
                            ids.stream()
                                .allMatch(id -> solves.status(id).status() == SolveStatus.SOLVED));
                Map<String, Long> solvedAt =
                    ids.stream()
                        .map(solves::status)
                        .collect(
                            Collectors.groupingBy(
                                SolveStatusView::provider, Collectors.counting()));
                // the primary's one thread and the pool's three: both answered solves
                assertThat(solvedAt).containsOnlyKeys("captchaai", "backup");
                await()
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(
                        () ->
                            assertThat(
                                    Map.of(
                                        "captchaai", solvedCount(registry, "captchaai"),
                                        "backup", solvedCount(registry, "backup")))
                                .isEqualTo(solvedAt));
                assertThat(
                        registry
                            .get("captchajobs.submits")
                            .tag("provider", "backup")
                            .tag("kind", "fresh")
                            .tag("type", "TURNSTILE")
                            .counter()
                            .count())
                    .isEqualTo(solvedAt.get("backup").doubleValue());
              });
    }
  }

  /** Solves stored from {@code provider}: the count of the solve latency timer tagged with it. */
  private static long solvedCount(MeterRegistry registry, String provider) {
    Timer timer =
        registry
            .find("captchajobs.solve.latency")
            .tag("provider", provider)
            .tag("type", "TURNSTILE")
            .timer();
    return timer == null ? 0 : timer.count();
  }
}
