package com.captchajobs.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Operations;
import com.captchajobs.core.Solves;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.client.ErrorClass;
import com.captchajobs.core.client.Verdict;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.internal.node.EngineParts;
import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.spring.boot.actuate.BreakerEndpoint;
import com.captchajobs.spring.boot.actuate.BreakerHealthIndicator;
import com.captchajobs.spring.boot.actuate.CaptchaJobsActuatorAutoConfiguration;
import com.captchajobs.spring.boot.metrics.CaptchaJobsMetricsAutoConfiguration;
import com.captchajobs.spring.boot.metrics.MeteredEngineEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.utils.mapper.JsonMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The starter's auto-configurations against a real PostgreSQL (one fresh database per test) and,
 * for workers, a local CaptchaAI simulator: every switch on and off, and backing off.
 */
@Execution(ExecutionMode.CONCURRENT)
class CaptchaJobsAutoConfigurationTest {

  /** 32 characters, as the simulator and CaptchaAI require. */
  private static final String KEY = "autoconf0autoconf0autoconf0auto0";

  private static final int SIMULATOR_THREADS = 5;

  private static final Class<?>[] JOBRUNR_TYPES = {
    StorageProvider.class,
    JobScheduler.class,
    JobRequestScheduler.class,
    BackgroundJobServer.class,
    JsonMapper.class
  };

  private static final List<String> HOST_PROPERTIES =
      List.of(
          "management.endpoints.web.exposure.include",
          "management.endpoints.jmx.exposure.include",
          "management.endpoint.health.show-details",
          "management.health.defaults.enabled",
          "jobrunr.background-job-server.enabled",
          "jobrunr.dashboard.enabled",
          "jobrunr.database.table-prefix",
          "spring.flyway.enabled",
          "spring.flyway.schemas",
          "spring.datasource.hikari.schema");

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  ThisBoot.DATA_SOURCE_AUTO_CONFIGURATION,
                  CaptchaJobsMetricsAutoConfiguration.class,
                  CaptchaJobsAutoConfiguration.class,
                  CaptchaJobsActuatorAutoConfiguration.class,
                  ThisBoot.HEALTH_AUTO_CONFIGURATION));

  /** The host alone: its DataSource, none of our auto-configurations. */
  private final ApplicationContextRunner hostOnly =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ThisBoot.DATA_SOURCE_AUTO_CONFIGURATION));

  // --- 1. no DataSource ---------------------------------------------------------------------

  @Test
  void withoutADataSourceThereIsNeitherCaptchaJobsNorSolves() {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                CaptchaJobsMetricsAutoConfiguration.class,
                CaptchaJobsAutoConfiguration.class,
                CaptchaJobsActuatorAutoConfiguration.class))
        .withPropertyValues("captchajobs.worker.enabled=true") // would need a key, were it wired
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(DataSource.class);
              assertThat(context).doesNotHaveBean(CaptchaJobs.class);
              assertThat(context).doesNotHaveBean(Solves.class);
              assertThat(context).doesNotHaveBean(CaptchaJobsProperties.class);
              assertThat(context).doesNotHaveBean(BreakerHealthIndicator.class);
              assertThat(context).doesNotHaveBean(BreakerEndpoint.class);
            });
  }

  @Test
  void withTwoDataSourcesAndNoPrimaryOneCaptchaJobsBacksOff() {
    runner
        .withUserConfiguration(TwoDataSources.class)
        .withPropertyValues("test.url=" + EmbeddedPostgresSupport.newDatabase())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).getBeans(DataSource.class).hasSize(2);
              assertThat(context).doesNotHaveBean(CaptchaJobs.class);
              assertThat(context).doesNotHaveBean(Solves.class);
            });
  }

  // --- 2. a DataSource ----------------------------------------------------------------------

  @Test
  void aDataSourceGivesCaptchaJobsWithoutAWorkerAndItsSolves() {
    runner
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(CaptchaJobs.class).hasSingleBean(Solves.class);
              CaptchaJobs captchaJobs = context.getBean(CaptchaJobs.class);
              assertThat(captchaJobs.runsWorker()).isFalse();
              assertThat(captchaJobs.operations().worker()).isEmpty();
              assertThat(captchaJobs.schema()).isEqualTo("captchajobs");
              assertThat(context.getBean(Solves.class)).isSameAs(captchaJobs.solves());
              assertThat(tables(context, "captchajobs"))
                  .contains("solve", "gate", "breaker", "cj_jobrunr_jobs");
              assertThat(context).doesNotHaveBean(BreakerHealthIndicator.class);
              assertThat(context).doesNotHaveBean(BreakerEndpoint.class);
            });
  }

  @Test
  void theStarterDefinesNoBeanOfJobRunrsTypes() {
    runner
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasSingleBean(CaptchaJobs.class);
              for (Class<?> type : JOBRUNR_TYPES) {
                assertThat(context).as(type.getName()).doesNotHaveBean(type);
              }
              // its own JobRunr exists, just not as beans
              assertThat(
                      EngineParts.find(context.getBean(CaptchaJobs.class), StorageProvider.class))
                  .isPresent();
            });
  }

  @Test
  void aKeyWithoutTheWorkerSwitchRunsNoWorker() {
    runner
        .withPropertyValues(database(), "captchaai.api-key=" + KEY)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(CaptchaJobs.class).runsWorker()).isFalse();
              assertThat(context).doesNotHaveBean(BreakerHealthIndicator.class);
              assertThat(context).doesNotHaveBean(BreakerEndpoint.class);
            });
  }

  // --- 3. captchajobs.enabled=false ---------------------------------------------------------

  @Test
  void disabledCaptchaJobsWiresNothingAndLeavesTheDatabaseAlone() {
    runner
        .withPropertyValues(
            database(),
            "captchajobs.enabled=false",
            "captchajobs.worker.enabled=true",
            "captchajobs.dashboard.enabled=true")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(DataSource.class);
              assertThat(context).doesNotHaveBean(CaptchaJobs.class);
              assertThat(context).doesNotHaveBean(Solves.class);
              assertThat(context).doesNotHaveBean(CaptchaAiProperties.class);
              assertThat(context).doesNotHaveBean(CaptchaJobsProperties.class);
              assertThat(context).doesNotHaveBean(WebhookProperties.class);
              assertThat(context).doesNotHaveBean(BreakerHealthIndicator.class);
              assertThat(context).doesNotHaveBean(BreakerEndpoint.class);
              assertThat(schemas(context)).doesNotContain("captchajobs");
            });
  }

  @Test
  void disabledCaptchaJobsLeavesNoBeanOfOursAtAll() {
    runner
        .withUserConfiguration(MeterRegistryConfiguration.class)
        .withPropertyValues(database(), "captchajobs.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(beansOfOurs(context)).isEmpty();
              assertThat(context).doesNotHaveBean(EngineListener.class);
              assertThat(context).doesNotHaveBean(MeterBinder.class);
            });
  }

  // --- 4. worker without key ----------------------------------------------------------------

  @Test
  void aWorkerWithoutAKeyFailsNamingThePropertyAndTheEnvironmentVariable() {
    runner
        .withInitializer(context -> withoutSystemSources(context.getEnvironment()))
        .withPropertyValues(database(), "captchajobs.worker.enabled=true")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context)
                  .getFailure()
                  .rootCause()
                  .isInstanceOf(MissingPropertyException.class)
                  .hasMessageContaining("captchaai.api-key")
                  .hasMessageContaining("CAPTCHAAI_API_KEY");
              MissingPropertyException missing =
                  (MissingPropertyException) rootCause(context.getStartupFailure());
              assertThat(missing.property()).isEqualTo("captchaai.api-key");
            });
  }

  @Test
  void aWorkerWhosePingbackHostOnlyStartsWith127RefusesToStartNamingTheProperty() {
    runner
        .withPropertyValues(database())
        .withPropertyValues(
            "captchajobs.worker.enabled=true",
            "captchaai.api-key=" + KEY,
            "captchaai.base-url=http://127.0.0.1:9",
            "captchaai.pingback-secret=pingback-secret-0123456789-0123456789",
            "captchaai.pingback-url=http://127.0.0.1.nip.example/captchaai/pingback")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context)
                  .getFailure()
                  .rootCause()
                  .hasMessageContaining("captchaai.pingback-url must be https");
            });
  }

  @Test
  void aBlankKeyCountsAsNoKey() {
    runner
        .withInitializer(context -> withoutSystemSources(context.getEnvironment()))
        .withPropertyValues(database(), "captchajobs.worker.enabled=true", "captchaai.api-key= ")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(MissingPropertyException.class));
  }

  // --- 5. worker with key -------------------------------------------------------------------

  @Test
  void aWorkerWithAKeyRunsAndGetsTheBreakerHealthIndicatorAndEndpoint() {
    aWorker(
        UnaryOperator.identity(),
        context -> {
          CaptchaJobs captchaJobs = context.getBean(CaptchaJobs.class);
          assertThat(captchaJobs.runsWorker()).isTrue();
          assertThat(captchaJobs.operations().worker()).isPresent();
          assertThat(context).hasSingleBean(BreakerHealthIndicator.class);
          assertThat(context).hasSingleBean(BreakerEndpoint.class);

          BreakerHealthIndicator health = context.getBean(BreakerHealthIndicator.class);
          assertThat(ThisBoot.status(health)).isEqualTo("UP");
          assertThat(ThisBoot.details(health))
              .containsEntry("breaker", "closed")
              .containsEntry("gateCapacity", 2)
              .containsEntry("providerThreads", SIMULATOR_THREADS);
          Map<String, Object> breaker = context.getBean(BreakerEndpoint.class).state();
          assertThat(breaker).containsEntry("open", false).containsKey("keyFingerprint");
          assertThat(breaker.values()).noneMatch(v -> String.valueOf(v).contains(KEY));
          for (Class<?> type : JOBRUNR_TYPES) {
            assertThat(context).as(type.getName()).doesNotHaveBean(type);
          }
        });
  }

  @Test
  void theKeyIsAlsoReadFromTheEnvironmentVariable() {
    withSimulator(
        simulator ->
            runner
                .withInitializer(
                    context ->
                        context
                            .getEnvironment()
                            .getPropertySources()
                            .replace(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                new SystemEnvironmentPropertySource(
                                    StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                    Map.<String, Object>of("CAPTCHAAI_API_KEY", KEY))))
                .withPropertyValues(database())
                .withPropertyValues(
                    Arrays.stream(worker(simulator))
                        .filter(p -> !p.startsWith("captchaai.api-key="))
                        .toArray(String[]::new))
                .run(
                    context -> {
                      assertThat(context).hasNotFailed();
                      assertThat(context.getBean(CaptchaJobs.class).runsWorker()).isTrue();
                    }));
  }

  @Test
  void withoutSpringBootHealthTheWorkerHasTheEndpointButNoHealthIndicator() {
    aWorker(
        base -> base.withClassLoader(new FilteredClassLoader(ThisBoot.HEALTH_INDICATOR)),
        context -> {
          assertThat(context.getBean(CaptchaJobs.class).runsWorker()).isTrue();
          assertThat(context).doesNotHaveBean(BreakerHealthIndicator.class);
          assertThat(context).hasSingleBean(BreakerEndpoint.class);
        });
  }

  @Test
  void withoutActuatorEndpointsTheWorkerHasTheHealthIndicatorButNoEndpoint() {
    aWorker(
        base -> base.withClassLoader(new FilteredClassLoader(Endpoint.class)),
        context -> {
          assertThat(context.getBean(CaptchaJobs.class).runsWorker()).isTrue();
          assertThat(context).hasSingleBean(BreakerHealthIndicator.class);
          assertThat(context).doesNotHaveBean(BreakerEndpoint.class);
        });
  }

  @Test
  void aUserDefinedHealthIndicatorOrEndpointWins() {
    aWorker(
        base -> base.withUserConfiguration(UserBreakerBeans.class),
        context -> {
          assertThat(context)
              .hasSingleBean(BreakerHealthIndicator.class)
              .hasSingleBean(BreakerEndpoint.class);
          assertThat(context).hasBean("userBreakerHealthIndicator").hasBean("userBreakerEndpoint");
        });
  }

  // --- 6. metrics ---------------------------------------------------------------------------

  @Test
  void theWorkersPingbackGaugeReadsThePingbackGroupWhereABlankUrlAsksForNoPushes() {
    aWorker(
        r ->
            r.withPropertyValues(
                "captchaai.pingback-url= ", "captchaai.pingback-secret=" + "p".repeat(32)),
        context ->
            assertThat(pingbackGauge(context))
                .as("a blank URL is no URL, as the node itself takes it")
                .isEqualTo(0.0));
    aWorker(
        r ->
            r.withPropertyValues(
                "captchaai.pingback-url=http://127.0.0.1:9/captchaai/pingback",
                "captchaai.pingback-register=false",
                "captchaai.pingback-secret=" + "p".repeat(32)),
        context -> assertThat(pingbackGauge(context)).isEqualTo(1.0));
  }

  private static double pingbackGauge(AssertableApplicationContext context) {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    context.getBean("captchaJobsGauges", MeterBinder.class).bindTo(registry);
    return registry.get("captchajobs.pingback.configured").gauge().value();
  }

  @Test
  void withAMeterRegistryTheEngineEventsAreMetered() {
    runner
        .withUserConfiguration(MeterRegistryConfiguration.class)
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(EngineListener.class);
              EngineListener events = context.getBean(EngineListener.class);
              assertThat(events).isInstanceOf(MeteredEngineEvents.class);
              assertThat(context.getBean(CaptchaJobs.class).solves())
                  .extracting("events")
                  .isSameAs(events);

              events.error("ERROR_ZERO_BALANCE", ErrorClass.CREDENTIAL);
              Counter errors =
                  context
                      .getBean(MeterRegistry.class)
                      .find("captchajobs.errors")
                      .tag("code", "ERROR_ZERO_BALANCE")
                      .tag("class", "credential")
                      .counter();
              assertThat(errors).isNotNull();
              assertThat(errors.count()).isEqualTo(1.0);

              events.error("ERROR_MADE_UP_<script>", ErrorClass.TRANSIENT);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(
                      registry
                          .find("captchajobs.errors")
                          .tag("code", "OTHER")
                          .tag("class", ErrorClass.TRANSIENT.label())
                          .counter()
                          .count())
                  .as("an unknown code is tagged OTHER")
                  .isEqualTo(1.0);
              assertThat(
                      registry
                          .find("captchajobs.errors")
                          .tag("code", "ERROR_MADE_UP_<script>")
                          .counter())
                  .isNull();
            });
  }

  @Test
  void theReportsCounterOfEveryTypeAndVerdictExistsAtZeroFromStartupAndCountsReports() {
    runner
        .withUserConfiguration(MeterRegistryConfiguration.class)
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              for (CaptchaType type : CaptchaType.values()) {
                for (Verdict verdict : Verdict.values()) {
                  Counter c =
                      registry
                          .find("captchajobs.reports")
                          .tag("type", type.name())
                          .tag("verdict", verdict.name())
                          .counter();
                  assertThat(c).as(type + " " + verdict).isNotNull();
                  assertThat(c.count()).isZero();
                }
              }
              context.getBean(EngineListener.class).reported(CaptchaType.TURNSTILE, Verdict.BAD);
              assertThat(
                      registry
                          .find("captchajobs.reports")
                          .tag("type", "TURNSTILE")
                          .tag("verdict", "BAD")
                          .counter()
                          .count())
                  .isEqualTo(1.0);
            });
  }

  @Test
  void withMicrometerButNoRegistryTheEngineEventsDoNothing() {
    runner
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(EngineListener.class)).isSameAs(EngineListener.NONE);
            });
  }

  @Test
  void withoutMicrometerThereIsNoEngineEventsBeanOfOurs() {
    runner
        .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(EngineListener.class);
              assertThat(context).doesNotHaveBean("captchaJobsGauges");
              assertThat(context).doesNotHaveBean(CaptchaJobsMetricsAutoConfiguration.class);
              assertThat(context).hasSingleBean(CaptchaJobs.class);
              assertThat(context.getBean(CaptchaJobs.class).solves())
                  .extracting("events")
                  .isSameAs(EngineListener.NONE);
            });
  }

  @Test
  void aUserDefinedEngineEventsBeanWins() {
    runner
        .withUserConfiguration(MeterRegistryConfiguration.class, UserEngineEvents.class)
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(EngineListener.class);
              assertThat(context).doesNotHaveBean("captchaJobsEngineEvents");
              EngineListener events = context.getBean(EngineListener.class);
              assertThat(events).isSameAs(UserEngineEvents.EVENTS);
              assertThat(context.getBean(CaptchaJobs.class).solves())
                  .extracting("events")
                  .isSameAs(events);
            });
  }

  @Test
  void onAWorkerTheGaugesShowTheGateAndTheBreaker() {
    aWorker(
        base -> base.withUserConfiguration(MeterRegistryConfiguration.class),
        context -> {
          MeterRegistry registry = context.getBean(MeterRegistry.class);
          context.getBean("captchaJobsGauges", MeterBinder.class).bindTo(registry);
          assertThat(registry.get("captchajobs.gate.capacity").gauge().value()).isEqualTo(2.0);
          assertThat(registry.get("captchajobs.gate.in.flight").gauge().value()).isEqualTo(0.0);
          assertThat(registry.get("captchajobs.gate.reporter").gauge().value())
              .as("the only worker reports the fleet's gauges")
              .isEqualTo(1.0);
          assertThat(
                  registry
                      .get("captchajobs.jobs.by.state")
                      .tag("state", "SUCCEEDED")
                      .gauge()
                      .value())
              .isGreaterThanOrEqualTo(0.0);
          assertThat(registry.get("captchajobs.provider.working.threads").gauge()).isNotNull();
          assertThat(registry.get("captchajobs.breaker.open").gauge().value()).isEqualTo(0.0);
          assertThat(registry.get("captchajobs.provider.threads").gauge().value())
              .isEqualTo((double) SIMULATOR_THREADS);
        });
  }

  @Test
  void theGaugesStillReadAfterAGarbageCollection() {
    aWorker(
        base -> base.withUserConfiguration(MeterRegistryConfiguration.class),
        context -> {
          MeterRegistry registry = context.getBean(MeterRegistry.class);
          context.getBean("captchaJobsGauges", MeterBinder.class).bindTo(registry);
          System.gc(); // Micrometer holds a gauge's object weakly unless told otherwise
          System.gc();
          assertThat(registry.get("captchajobs.gate.capacity").gauge().value()).isEqualTo(2.0);
          assertThat(registry.get("captchajobs.provider.threads").gauge().value())
              .isEqualTo((double) SIMULATOR_THREADS);
        });
  }

  @Test
  void withoutAWorkerTheGaugesBindNothing() {
    runner
        .withUserConfiguration(MeterRegistryConfiguration.class)
        .withPropertyValues(database())
        .run(
            context -> {
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              context.getBean("captchaJobsGauges", MeterBinder.class).bindTo(registry);
              assertThat(registry.find("captchajobs.gate.capacity").gauge()).isNull();
              assertThat(registry.find("captchajobs.breaker.open").gauge()).isNull();
            });
  }

  // --- 7. user-defined beans ----------------------------------------------------------------

  @Test
  void aUserDefinedSolvesBeanWins() {
    UserSolves.BUILT.set(null);
    try {
      runner
          .withUserConfiguration(UserSolves.class)
          .withPropertyValues(database())
          .run(
              context -> {
                assertThat(context).hasNotFailed();
                assertThat(context).hasSingleBean(Solves.class);
                CaptchaJobs separate = UserSolves.BUILT.get();
                assertThat(context.getBean(Solves.class)).isSameAs(separate.solves());
                // our CaptchaJobs is still wired; only its Solves backed off
                assertThat(context).hasSingleBean(CaptchaJobs.class);
                assertThat(context.getBean(CaptchaJobs.class)).isNotSameAs(separate);
                assertThat(context).doesNotHaveBean("solves");
              });
    } finally {
      CaptchaJobs separate = UserSolves.BUILT.getAndSet(null);
      if (separate != null) {
        separate.close();
      }
    }
  }

  @Test
  void aUserDefinedCaptchaJobsBeanWins() {
    runner
        .withUserConfiguration(UserCaptchaJobs.class)
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(CaptchaJobs.class);
              CaptchaJobs users = context.getBean(CaptchaJobs.class);
              assertThat(users.schema()).isEqualTo("users_own");
              assertThat(context).doesNotHaveBean("captchaJobs");
              assertThat(context.getBean(Solves.class)).isSameAs(users.solves());
              assertThat(schemas(context)).contains("users_own").doesNotContain("captchajobs");
            });
  }

  @Test
  void aUserDefinedCaptchaJobsWithoutAWorkerAndTheWorkerSwitchOnFailsSayingWhatToChange() {
    runner
        .withUserConfiguration(UserCaptchaJobs.class)
        .withPropertyValues(
            database(), "captchajobs.worker.enabled=true", "captchaai.api-key=" + KEY)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context)
                  .getFailure()
                  .rootCause()
                  .hasMessageContaining("captchajobs.worker.enabled=true")
                  .hasMessageContaining("runs no worker");
            });
  }

  @Test
  void webhookBackoffSettingsThatCannotWorkFailNamingTheKey() {
    runner
        .withPropertyValues(database(), "captchajobs.webhook.backoff=500ms")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("captchajobs.webhook.backoff must be at least 1s"));
    runner
        .withPropertyValues(
            database(), "captchajobs.webhook.backoff=30s", "captchajobs.webhook.max-backoff=10s")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("captchajobs.webhook.max-backoff"));
    runner
        .withPropertyValues(database(), "captchajobs.webhook.threads=0")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("captchajobs.webhook.threads must be at least 1"));
  }

  @Test
  void aReportWindowOutsideOneSecondToOneHourIsRefusedAtStartupNamingTheKeyOnANodeWithoutWorker() {
    runner
        .withPropertyValues(database())
        .withPropertyValues("captchajobs.report-window=2h")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("captchajobs.report-window must be between 1s and 1h"));
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void theIgnoredResumeWindowStillStartsANodeWhateverItsValueAndAWarningSaysItIsIgnored(
      CapturedOutput output) {
    runner
        .withPropertyValues(database())
        // below the solve timeout: refused at startup while the property was still bound
        .withPropertyValues("captchaai.resume-window=25s", "captchaai.solve-timeout=120s")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(CaptchaJobs.class);
              assertThat(output).contains("captchaai.resume-window is ignored: nothing reads it");
              assertThat(output.getOut().split("captchaai.resume-window is ignored", -1))
                  .as("warned once, naming the key")
                  .hasSize(2);
            });
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void aNodeThatDoesNotSetTheResumeWindowHearsNothingAboutIt(CapturedOutput output) {
    runner
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(output).doesNotContain("captchaai.resume-window");
            });
  }

  @Test
  void aRetentionShorterThanATokenTtlOrTheWebhookRetrySpanIsRefusedAtStartupNamingTheKeys() {
    String[] worker = {
      "captchajobs.worker.enabled=true",
      "captchaai.api-key=" + KEY,
      "captchaai.base-url=http://127.0.0.1:9",
      "captchajobs.retention=1h"
    };
    runner
        .withPropertyValues(database())
        .withPropertyValues(worker)
        .withPropertyValues("captchaai.token-ttl.TURNSTILE=2h")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("captchajobs.retention (PT1H) must be longer than")
                    .hasMessageContaining("captchaai.token-ttl.TURNSTILE (PT2H)"));
    runner
        .withPropertyValues(database())
        .withPropertyValues(worker)
        .withPropertyValues(
            "captchajobs.webhook.secret=webhook-secret-0123456789",
            "captchajobs.webhook.retries=12",
            "captchajobs.webhook.max-backoff=30m")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("captchajobs.retention (PT1H) must be longer than")
                    .hasMessageContaining("webhook retry span")
                    .hasMessageContaining("captchajobs.webhook.retries")
                    .hasMessageContaining("captchajobs.webhook.max-backoff"));
  }

  @Test
  void webhookOriginsAndClientSharesThatCannotWorkFailNamingTheKey() {
    runner
        .withPropertyValues(database(), "captchajobs.webhook.allowed-hosts=recv:http")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("captchajobs.webhook.allowed-hosts")
                    .hasMessageContaining("recv:http"));
    runner
        .withPropertyValues(
            database(), "captchajobs.webhook.threads=4", "captchajobs.webhook.threads-per-client=5")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("captchajobs.webhook.threads-per-client"));
  }

  // --- 8. dashboard -------------------------------------------------------------------------

  @Test
  void theDashboardBindsServerAddressUnlessItHasAnAddressOfItsOwn() {
    // 127.0.0.2 is a loopback address of its own on Linux: nothing listens there by accident
    int port = freePort();
    runner
        .withPropertyValues(
            database(),
            "server.address=127.0.0.2",
            "captchajobs.dashboard.enabled=true",
            "captchajobs.dashboard.port=" + port,
            "captchajobs.dashboard.username=admin",
            "captchajobs.dashboard.password=dashboard-password-0123")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(status("http://127.0.0.2:" + port + "/api/servers")).isEqualTo(401);
              assertThat(connects("127.0.0.1", port)).as("not on 127.0.0.1").isFalse();
            });
    int own = freePort();
    runner
        .withPropertyValues(
            database(),
            "server.address=127.0.0.2",
            "captchajobs.dashboard.address=127.0.0.1",
            "captchajobs.dashboard.enabled=true",
            "captchajobs.dashboard.port=" + own,
            "captchajobs.dashboard.username=admin",
            "captchajobs.dashboard.password=dashboard-password-0123")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(status("http://127.0.0.1:" + own + "/api/servers")).isEqualTo(401);
              assertThat(connects("127.0.0.2", own)).as("not on server.address").isFalse();
            });
  }

  private static boolean connects(String host, int port) {
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress(host, port), 2000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void theDashboardWithoutCredentialsFails() {
    runner
        .withPropertyValues(database(), "captchajobs.dashboard.enabled=true")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context)
                  .getFailure()
                  .rootCause()
                  .isInstanceOf(MissingDashboardCredentialsException.class)
                  .hasMessageContaining("captchajobs.dashboard.username")
                  .hasMessageContaining("captchajobs.dashboard.password");
            });
  }

  @Test
  void theDashboardWithOnlyAUsernameFailsNamingThePassword() {
    runner
        .withPropertyValues(
            database(),
            "captchajobs.dashboard.enabled=true",
            "captchajobs.dashboard.username=admin")
        .run(
            context -> {
              assertThat(context).hasFailed();
              MissingDashboardCredentialsException missing =
                  (MissingDashboardCredentialsException) rootCause(context.getStartupFailure());
              assertThat(missing.hasUsername()).isTrue();
              assertThat(missing.hasPassword()).isFalse();
              assertThat(missing).hasMessageEndingWith("(missing: captchajobs.dashboard.password)");
            });
  }

  @Test
  void aDashboardPasswordShorterThan12CharactersFailsNamingTheKey() {
    runner
        .withPropertyValues(
            database(),
            "captchajobs.dashboard.enabled=true",
            "captchajobs.dashboard.username=admin",
            "captchajobs.dashboard.password=eleven-char")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(rootCause(context.getStartupFailure()))
                  .hasMessage(
                      "captchajobs.dashboard.password must be at least 12 characters (it has 11)")
                  .hasMessageNotContaining("eleven-char");
            });
  }

  @Test
  void theDashboardWithCredentialsServesBehindBasicAuthAndStopsWithTheContext() throws Exception {
    int port = freePort();
    AtomicReference<Integer> unauthenticated = new AtomicReference<>();
    runner
        .withPropertyValues(
            database(),
            "captchajobs.dashboard.enabled=true",
            "captchajobs.dashboard.port=" + port,
            "captchajobs.dashboard.username=admin",
            "captchajobs.dashboard.password=s3cret-pass-0123")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              unauthenticated.set(get(port));
            });
    assertThat(unauthenticated.get()).isEqualTo(401);
    assertThatCode(() -> new ServerSocket(port).close()).doesNotThrowAnyException();
  }

  @Test
  void theDashboardIsOffByDefault() {
    int port = freePort();
    runner
        .withPropertyValues(database(), "captchajobs.dashboard.port=" + port)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThatCode(() -> new ServerSocket(port).close()).doesNotThrowAnyException();
            });
  }

  // --- 9. the host's environment ------------------------------------------------------------

  @Test
  void theStarterAddsNoPropertySource() {
    Set<String> without = propertySourceNames(hostOnly.withPropertyValues(database()));
    Set<String> with = propertySourceNames(runner.withPropertyValues(database()));
    assertThat(with).isEqualTo(without);
  }

  @Test
  void aWorkerAddsNoPropertySourceAndSetsNoHostProperty() {
    withSimulator(
        simulator -> {
          Set<String> without =
              propertySourceNames(
                  hostOnly.withPropertyValues(database()).withPropertyValues(worker(simulator)));
          AtomicReference<Set<String>> with = new AtomicReference<>();
          runner
              .withPropertyValues(database())
              .withPropertyValues(worker(simulator))
              .run(
                  context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(CaptchaJobs.class).runsWorker()).isTrue();
                    with.set(names(context.getEnvironment()));
                    assertThat(
                            context
                                .getEnvironment()
                                .containsProperty("management.endpoints.web.exposure.include"))
                        .isFalse();
                    for (String property : HOST_PROPERTIES) {
                      assertThat(context.getEnvironment().containsProperty(property))
                          .as(property)
                          .isFalse();
                    }
                  });
          assertThat(with.get()).isEqualTo(without);
        });
  }

  @Test
  void aHostPropertyTheHostDidNotSetStaysAbsent() {
    Map<String, Object> systemPropertiesBefore = systemProperties();
    runner
        .withPropertyValues(database())
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              ConfigurableEnvironment environment = context.getEnvironment();
              assertThat(environment.containsProperty("management.endpoints.web.exposure.include"))
                  .isFalse();
              assertThat(environment.getProperty("management.endpoints.web.exposure.include"))
                  .isNull();
              for (String property : HOST_PROPERTIES) {
                assertThat(environment.containsProperty(property)).as(property).isFalse();
              }
            });
    assertThat(systemProperties()).isEqualTo(systemPropertiesBefore);
  }

  @Test
  void aHostPropertyTheHostDidSetKeepsItsValue() {
    runner
        .withPropertyValues(database(), "management.endpoints.web.exposure.include=health")
        .run(
            context ->
                assertThat(
                        context
                            .getEnvironment()
                            .getProperty("management.endpoints.web.exposure.include"))
                    .isEqualTo("health"));
  }

  @Test
  void theStarterRegistersNoEnvironmentPostProcessorListenerOrInitializer() throws IOException {
    URL ours =
        CaptchaJobsAutoConfiguration.class.getProtectionDomain().getCodeSource().getLocation();
    List<URL> factories =
        Collections.list(getClass().getClassLoader().getResources("META-INF/spring.factories"))
            .stream()
            .filter(
                url ->
                    url.toString().startsWith("jar:" + ours)
                        || url.toString().startsWith(ours.toString()))
            .toList();
    assertThat(factories).hasSize(1);
    Properties properties = new Properties();
    try (InputStream in = factories.get(0).openStream()) {
      properties.load(in);
    }
    assertThat(properties.stringPropertyNames())
        .containsExactly("org.springframework.boot.diagnostics.FailureAnalyzer");
  }

  // --- 10. defaults -------------------------------------------------------------------------

  @Test
  void theDefaultsOfCaptchaJobsAndWebhookPropertiesAreTheBuildersConstants() {
    assertBuilderDefaults(new CaptchaJobsProperties(), new WebhookProperties());
  }

  @Test
  void theBoundDefaultsAreTheBuildersConstants() {
    runner
        .withPropertyValues(database())
        .run(
            context ->
                assertBuilderDefaults(
                    context.getBean(CaptchaJobsProperties.class),
                    context.getBean(WebhookProperties.class)));
  }

  private static void assertBuilderDefaults(
      CaptchaJobsProperties captchaJobs, WebhookProperties webhook) {
    assertThat(captchaJobs.isEnabled()).isTrue();
    assertThat(captchaJobs.getSchema()).isEqualTo("captchajobs");
    assertThat(captchaJobs.getSchema()).isEqualTo(CaptchaJobs.Builder.DEFAULT_SCHEMA);
    assertThat(captchaJobs.getRetention()).isEqualTo(RetentionSettings.DEFAULT_RETENTION);
    assertThat(captchaJobs.getReportWindow()).isEqualTo(CaptchaJobs.Builder.DEFAULT_REPORT_WINDOW);
    assertThat(captchaJobs.getRetentionInterval())
        .isEqualTo(RetentionSettings.DEFAULT_RETENTION_INTERVAL);
    assertThat(captchaJobs.getWorker().isEnabled()).isFalse();
    assertThat(captchaJobs.getWorker().getName()).isNull();
    assertThat(captchaJobs.getWorker().getWorkerCount())
        .isEqualTo(WorkerSettings.DEFAULT_WORKER_COUNT);
    assertThat(captchaJobs.getWorker().getPollInterval())
        .isEqualTo(WorkerSettings.DEFAULT_POLL_INTERVAL);
    assertThat(captchaJobs.getWorker().getShutdownWait())
        .isEqualTo(WorkerSettings.DEFAULT_SHUTDOWN_WAIT);
    assertThat(captchaJobs.getDashboard().isEnabled()).isFalse();
    assertThat(captchaJobs.getDashboard().getPort()).isEqualTo(DashboardSettings.DEFAULT_PORT);
    assertThat(captchaJobs.getDashboard().getUsername()).isNull();
    assertThat(captchaJobs.getDashboard().getPassword()).isNull();
    assertThat(webhook.getTimeout()).isEqualTo(WebhookSettings.DEFAULT_TIMEOUT);
    assertThat(webhook.getRetries()).isEqualTo(WebhookSettings.DEFAULT_RETRIES);
    assertThat(webhook.getThreads()).isEqualTo(WebhookSettings.DEFAULT_THREADS);
    assertThat(webhook.getBackoff()).isEqualTo(WebhookSettings.DEFAULT_BACKOFF);
    assertThat(webhook.getMaxBackoff()).isEqualTo(WebhookSettings.DEFAULT_MAX_BACKOFF);
    assertThat(webhook.isIncludeToken()).isFalse();
    assertThat(webhook.hasSecret()).isFalse();
  }

  // --- 11. schema ---------------------------------------------------------------------------

  @Test
  void anotherSchemaHoldsEveryTableOfOurs() {
    runner
        .withPropertyValues(database(), "captchajobs.schema=other")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(CaptchaJobs.class).schema()).isEqualTo("other");
              assertThat(tables(context, "other"))
                  .contains(
                      "solve",
                      "gate",
                      "gate_slot",
                      "breaker",
                      "poll",
                      "slot_handoff",
                      "schema_history",
                      "cj_jobrunr_jobs");
              assertThat(schemas(context)).doesNotContain("captchajobs");
              assertThat(tables(context, "public")).isEmpty();
            });
  }

  // --- helpers ------------------------------------------------------------------------------

  private static String database() {
    return "spring.datasource.url=" + EmbeddedPostgresSupport.newDatabase();
  }

  private static String[] worker(CaptchaAiSimulator simulator) {
    return new String[] {
      "captchajobs.worker.enabled=true",
      "captchaai.api-key=" + KEY,
      "captchaai.base-url=" + simulator.baseUrl(),
      "captchaai.threads=2",
      "captchajobs.worker.worker-count=2",
      "captchajobs.worker.shutdown-wait=1s"
    };
  }

  /**
   * A worker with a key against the simulator: {@code setUp} on {@link #runner}, with the database
   * and the worker's properties; it starts, and then {@code then} checks it.
   */
  private void aWorker(
      UnaryOperator<ApplicationContextRunner> setUp,
      ContextConsumer<AssertableApplicationContext> then) {
    withSimulator(
        simulator ->
            setUp
                .apply(runner)
                .withPropertyValues(database())
                .withPropertyValues(worker(simulator))
                .run(
                    context -> {
                      assertThat(context).hasNotFailed();
                      then.accept(context);
                    }));
  }

  private static void withSimulator(Consumer<CaptchaAiSimulator> body) {
    try (CaptchaAiSimulator simulator =
        CaptchaAiSimulator.builder()
            .account(KEY, SIMULATOR_THREADS)
            .timeScale(0.1)
            .build()
            .start()) {
      body.accept(simulator);
    }
  }

  /** No key can come from the machine running the tests. */
  private static void withoutSystemSources(ConfigurableEnvironment environment) {
    environment
        .getPropertySources()
        .remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    environment
        .getPropertySources()
        .remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
  }

  private static Throwable rootCause(Throwable failure) {
    Throwable t = failure;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }

  private static List<String> tables(ConfigurableApplicationContext context, String schema) {
    return new JdbcTemplate(context.getBean(DataSource.class))
        .queryForList(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY 1",
            String.class,
            schema);
  }

  private static List<String> schemas(ConfigurableApplicationContext context) {
    return new JdbcTemplate(context.getBean(DataSource.class))
        .queryForList(
            "SELECT schema_name FROM information_schema.schemata ORDER BY 1", String.class);
  }

  private static Set<String> propertySourceNames(ApplicationContextRunner contextRunner) {
    AtomicReference<Set<String>> names = new AtomicReference<>();
    contextRunner.run(
        context -> {
          assertThat(context).hasNotFailed();
          names.set(names(context.getEnvironment()));
        });
    return names.get();
  }

  private static Set<String> names(ConfigurableEnvironment environment) {
    return environment.getPropertySources().stream()
        .map(PropertySource::getName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** The JVM's system properties, less the host pool's own counter (Hikari numbers its pools). */
  private static Map<String, Object> systemProperties() {
    Map<String, Object> copy = new HashMap<>();
    System.getProperties().forEach((k, v) -> copy.put(String.valueOf(k), v));
    copy.remove("com.zaxxer.hikari.pool_number");
    return copy;
  }

  /** Beans whose class is ours or that one of our classes produced. */
  private static List<String> beansOfOurs(AssertableApplicationContext context) {
    ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
    List<String> ours = new ArrayList<>();
    for (String name : beanFactory.getBeanDefinitionNames()) {
      BeanDefinition definition = beanFactory.getBeanDefinition(name);
      String factory = definition.getFactoryBeanName();
      if (isOurs(beanFactory.getType(name, false))
          || (factory != null && isOurs(beanFactory.getType(factory, false)))) {
        ours.add(name);
      }
    }
    return ours;
  }

  private static boolean isOurs(Class<?> type) {
    return type != null
        && type.getName().startsWith("com.captchajobs.")
        && !type.getName().startsWith(CaptchaJobsAutoConfigurationTest.class.getName());
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int status(String url) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
    try {
      connection.setConnectTimeout(5_000);
      connection.setReadTimeout(10_000);
      return connection.getResponseCode();
    } finally {
      connection.disconnect();
    }
  }

  private static int get(int port) throws IOException {
    HttpURLConnection connection =
        (HttpURLConnection)
            URI.create("http://127.0.0.1:" + port + "/dashboard").toURL().openConnection();
    try {
      connection.setConnectTimeout(5_000);
      connection.setReadTimeout(10_000);
      return connection.getResponseCode();
    } finally {
      connection.disconnect();
    }
  }

  // --- user configurations ------------------------------------------------------------------

  @Configuration(proxyBeanMethods = false)
  static class MeterRegistryConfiguration {

    @Bean
    SimpleMeterRegistry meterRegistry() {
      return new SimpleMeterRegistry();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserEngineEvents {

    static final EngineListener EVENTS = new EngineListener() {};

    @Bean
    EngineListener usersEngineEvents() {
      return EVENTS;
    }
  }

  /** A Solves bean from a CaptchaJobs built apart (not a bean), closed with the context. */
  @Configuration(proxyBeanMethods = false)
  static class UserSolves implements DisposableBean {

    static final AtomicReference<CaptchaJobs> BUILT = new AtomicReference<>();

    @Bean
    Solves usersSolves(DataSource dataSource) {
      CaptchaJobs built =
          CaptchaJobs.builder().dataSource(dataSource).schema("users_solves").build();
      BUILT.set(built);
      return built.solves();
    }

    @Override
    public void destroy() {
      CaptchaJobs built = BUILT.get();
      if (built != null) {
        built.close();
      }
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserCaptchaJobs {

    @Bean(destroyMethod = "close")
    CaptchaJobs usersCaptchaJobs(DataSource dataSource) {
      return CaptchaJobs.builder().dataSource(dataSource).schema("users_own").build();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class UserBreakerBeans {

    @Bean
    BreakerHealthIndicator userBreakerHealthIndicator(CaptchaJobs captchaJobs) {
      Operations operations = captchaJobs.operations();
      return new BreakerHealthIndicator(operations, operations.worker().orElseThrow());
    }

    @Bean(destroyMethod = "")
    BreakerEndpoint userBreakerEndpoint(CaptchaJobs captchaJobs) {
      return new BreakerEndpoint(captchaJobs.operations().worker().orElseThrow());
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class TwoDataSources {

    @Bean
    DataSource first(org.springframework.core.env.Environment environment) {
      return pg(environment.getProperty("test.url"));
    }

    @Bean
    DataSource second(org.springframework.core.env.Environment environment) {
      return pg(environment.getProperty("test.url"));
    }

    private static DataSource pg(String url) {
      PGSimpleDataSource dataSource = new PGSimpleDataSource();
      dataSource.setURL(url);
      return dataSource;
    }
  }
}
