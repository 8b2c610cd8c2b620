package com.captchajobs.spring.boot;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Solves;
import com.captchajobs.core.internal.engine.EngineEvents;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Wires {@link CaptchaJobs} from the application's {@link DataSource} and the {@code captchaai.*}
 * and {@code captchajobs.*} properties, and exposes its {@link Solves}. Every node gets the Java
 * API; a worker runs only with {@code captchajobs.worker.enabled=true} and a key. CaptchaJobs runs
 * its own JobRunr on its own tables: no bean of JobRunr's types is defined here, so a host's
 * JobRunr, its jobs and its retry settings are left exactly as they are.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(name = "captchajobs.enabled", matchIfMissing = true)
@EnableConfigurationProperties({
  CaptchaAiProperties.class,
  CaptchaJobsProperties.class,
  WebhookProperties.class
})
public class CaptchaJobsAutoConfiguration {

  private static final String BEAN_NAME = "captchaJobs";
  private static final String HOST_JOBRUNR_STORAGE = "org.jobrunr.storage.StorageProvider";

  /** The key is also read from this environment variable (relaxed binding alone would not). */
  public static final String API_KEY_ENV = "CAPTCHAAI_API_KEY";

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public CaptchaJobs captchaJobs(
      DataSource dataSource,
      CaptchaAiProperties captchaAi,
      CaptchaJobsProperties captchaJobs,
      WebhookProperties webhook,
      Environment environment,
      ObjectProvider<EngineEvents> events,
      ObjectProvider<Clock> clock) {
    captchaAi.validate();
    webhook.validate();
    CaptchaJobs.Builder builder =
        CaptchaJobs.builder()
            .dataSource(dataSource)
            .schema(captchaJobs.getSchema())
            .settings(captchaAi.toSettings())
            .events(events.getIfAvailable(() -> EngineEvents.NONE))
            .clock(clock.getIfUnique(Clock::systemUTC));
    if (captchaAi.hasPingbackSecret()) {
      builder.pingbackSecret(captchaAi.getPingbackSecret());
    }
    CaptchaJobsProperties.Worker worker = captchaJobs.getWorker();
    if (worker.isEnabled()) {
      String pingbackUrl = captchaAi.getPingbackUrl();
      if (pingbackUrl != null && !pingbackUrl.isBlank()) {
        builder.pingbackUrl(pingbackUrl);
      }
      builder
          .apiKey(requireApiKey(captchaAi, environment))
          .baseUrl(captchaAi.getBaseUrl())
          .connectTimeout(captchaAi.getConnectTimeout())
          .readTimeout(captchaAi.getReadTimeout())
          .threadsReserve(captchaAi.getThreadsReserve())
          .preflight(captchaAi.isPreflight())
          .maxBackoff(captchaAi.getMaxBackoff())
          .reconcileInterval(captchaAi.getReconcileInterval())
          .providerCheckInterval(captchaAi.getProviderCheckInterval())
          .jobPollInterval(worker.getPollInterval())
          .workerCount(worker.getWorkerCount())
          .shutdownWait(worker.getShutdownWait())
          .webhookIncludeToken(webhook.isIncludeToken())
          .webhookTimeout(webhook.getTimeout())
          .webhookRetries(webhook.getRetries())
          .webhookThreads(webhook.getThreads())
          .webhookBackoff(webhook.getBackoff())
          .webhookMaxBackoff(webhook.getMaxBackoff())
          .webhookAllowedHosts(webhook.getAllowedHosts())
          .retention(captchaJobs.getRetention())
          .retentionInterval(captchaJobs.getRetentionInterval());
      WebhookProperties.clientSecrets(environment).forEach(builder::webhookClientSecret);
      if (webhook.hasSecret()) {
        builder.webhookSecret(webhook.getSecret());
      }
      if (worker.getName() != null && !worker.getName().isBlank()) {
        builder.nodeName(worker.getName());
      }
    }
    CaptchaJobsProperties.Dashboard dashboard = captchaJobs.getDashboard();
    if (dashboard.isEnabled()) {
      boolean hasUsername = has(dashboard.getUsername());
      boolean hasPassword = has(dashboard.getPassword());
      if (!hasUsername || !hasPassword) {
        throw new MissingDashboardCredentialsException(hasUsername, hasPassword);
      }
      builder.dashboard(dashboard.getPort(), dashboard.getUsername(), dashboard.getPassword());
    }
    return builder.build();
  }

  /**
   * In an application with JobRunr of its own, its storage is set up before ours: JobRunr 8.7 looks
   * for its migrations table by name in every schema, so on a fresh database it would take our
   * {@code <schema>.jobrunr_migrations} for its own if ours came first.
   */
  @Bean
  static BeanFactoryPostProcessor captchaJobsAfterTheApplicationsJobRunr() {
    return beanFactory -> {
      ClassLoader loader = beanFactory.getBeanClassLoader();
      if (!ClassUtils.isPresent(HOST_JOBRUNR_STORAGE, loader)
          || !beanFactory.containsBeanDefinition(BEAN_NAME)) {
        return;
      }
      Class<?> storage = ClassUtils.resolveClassName(HOST_JOBRUNR_STORAGE, loader);
      String[] names = beanFactory.getBeanNamesForType(storage, true, false);
      if (names.length == 0) {
        return;
      }
      BeanDefinition ours = beanFactory.getBeanDefinition(BEAN_NAME);
      Set<String> dependsOn = new LinkedHashSet<>();
      if (ours.getDependsOn() != null) {
        dependsOn.addAll(List.of(ours.getDependsOn()));
      }
      dependsOn.addAll(List.of(names));
      ours.setDependsOn(dependsOn.toArray(String[]::new));
    };
  }

  @Bean
  @ConditionalOnMissingBean
  public Solves solves(CaptchaJobs captchaJobs) {
    return captchaJobs.solves();
  }

  private static String requireApiKey(CaptchaAiProperties properties, Environment environment) {
    String key =
        has(properties.getApiKey()) ? properties.getApiKey() : environment.getProperty(API_KEY_ENV);
    if (!has(key)) {
      throw new MissingPropertyException(
          "captchaai.api-key",
          "captchaai.api-key (or the environment variable "
              + API_KEY_ENV
              + ") is required on a"
              + " worker (captchajobs.worker.enabled=true)");
    }
    return key;
  }

  private static boolean has(String value) {
    return value != null && !value.isBlank();
  }
}
