package com.captchajobs.spring.boot;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Solves;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.core.settings.InvalidSettingException;
import com.captchajobs.core.settings.PingbackSettings;
import java.time.Clock;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.log.LogAccessor;

/**
 * Wires {@link CaptchaJobs} from the application's {@link DataSource} and the {@code captchaai.*}
 * and {@code captchajobs.*} properties, and exposes its {@link Solves}. Every node gets the Java
 * API; a worker runs only with {@code captchajobs.worker.enabled=true} and a key. CaptchaJobs runs
 * its own JobRunr on its own tables: no bean of JobRunr's types is defined here, so a host's
 * JobRunr, its jobs and its retry settings are left exactly as they are.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration", // Boot 4
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration" // Boot 3
    })
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(name = "captchajobs.enabled", matchIfMissing = true)
@EnableConfigurationProperties({
  CaptchaAiProperties.class,
  CaptchaJobsProperties.class,
  WebhookProperties.class,
  ProvidersProperties.class
})
public class CaptchaJobsAutoConfiguration {

  /** The key is also read from this environment variable (relaxed binding alone would not). */
  public static final String API_KEY_ENV = "CAPTCHAAI_API_KEY";

  /**
   * A property nothing reads any more: bound by no class, still accepted (Boot ignores a key no
   * property binds) with a warning, so that a configuration that sets it starts.
   */
  static final String IGNORED_RESUME_WINDOW = "captchaai.resume-window";

  private static final LogAccessor log = new LogAccessor(CaptchaJobsAutoConfiguration.class);

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public CaptchaJobs captchaJobs(
      DataSource dataSource,
      CaptchaAiProperties captchaAi,
      CaptchaJobsProperties captchaJobs,
      WebhookProperties webhook,
      ProvidersProperties providers,
      Environment environment,
      ObjectProvider<EngineListener> listener,
      ObjectProvider<Clock> clock) {
    captchaAi.validate();
    webhook.validate();
    warnIfIgnoredPropertiesAreSet(environment);
    CaptchaJobsProperties.Worker worker = captchaJobs.getWorker();
    PingbackSettings pingbacks = captchaAi.toPingbacks();
    CaptchaJobs.Builder builder =
        CaptchaJobs.builder()
            .dataSource(dataSource)
            .schema(captchaJobs.getSchema())
            .settings(captchaAi.toSettings())
            .listener(listener.getIfAvailable(() -> EngineListener.NONE))
            .clock(clock.getIfUnique(Clock::systemUTC))
            .reportWindow(captchaJobs.getReportWindow())
            // an app node receives pushes (the secret); only a worker asks for them (the URL)
            .pingbacks(worker.isEnabled() ? pingbacks : pingbacks.toBuilder().url(null).build());
    if (worker.isEnabled()) {
      builder
          .apiKey(requireApiKey(captchaAi, environment))
          .baseUrl(captchaAi.getBaseUrl())
          .connectTimeout(captchaAi.getConnectTimeout())
          .readTimeout(captchaAi.getReadTimeout())
          .worker(worker.toSettings())
          .retention(captchaJobs.toRetention())
          .webhooks(webhook.toSettings(WebhookProperties.clientSecrets(environment)));
      providers.toSettings().forEach(builder::provider); // none: the primary alone
    } else {
      // checked on every node, so a value that cannot work is refused wherever it is set
      builder.webhooks(webhook.toSettings(Map.of()));
    }
    CaptchaJobsProperties.Dashboard dashboard = captchaJobs.getDashboard();
    if (dashboard.isEnabled()) {
      boolean hasUsername = has(dashboard.getUsername());
      boolean hasPassword = has(dashboard.getPassword());
      if (!hasUsername || !hasPassword) {
        throw new MissingDashboardCredentialsException(hasUsername, hasPassword);
      }
      // A node told where to listen (server.address) is not meant to open the dashboard elsewhere.
      builder.dashboard(dashboard.toSettings(environment.getProperty("server.address")));
    }
    try {
      return builder.build();
    } catch (InvalidSettingException e) {
      throw PropertyNames.named(e);
    }
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

  private static void warnIfIgnoredPropertiesAreSet(Environment environment) {
    if (Binder.get(environment).bind(IGNORED_RESUME_WINDOW, Bindable.of(String.class)).isBound()) {
      log.warn(
          IGNORED_RESUME_WINDOW
              + " is ignored: nothing reads it (a stored task id is always asked before a fresh"
              + " submission, whatever its age); remove it from the configuration");
    }
  }
}
