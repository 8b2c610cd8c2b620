package com.captchajobs.spring.boot;

import com.captchajobs.core.internal.engine.SolveRepository;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.spring.boot.SolveNotificationsAutoConfiguration;
import java.time.Clock;
import javax.sql.DataSource;
import okhttp3.OkHttpClient;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.spring.autoconfigure.JobRunrAutoConfiguration;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Webhook delivery on worker nodes: the job handler, and the listener that creates a webhook job
 * when a solve with a callback URL reaches its outcome.
 */
@AutoConfiguration(after = {SolveNotificationsAutoConfiguration.class, JobRunrAutoConfiguration.class})
@ConditionalOnProperty(prefix = "jobrunr.background-job-server", name = "enabled", havingValue = "true")
@ConditionalOnBean(SolveNotifications.class)
@EnableConfigurationProperties(WebhookProperties.class)
public class WebhookAutoConfiguration {

  @Bean
  public WebhookJob webhookJob(
      SolveRepository repository, WebhookProperties properties, Clock clock) {
    properties.validate();
    if (!properties.hasSecret()) {
      LoggerFactory.getLogger(WebhookAutoConfiguration.class).warn(
          "captchajobs.webhook.secret is not set: solves with a callbackUrl get no webhook");
    }
    OkHttpClient http = new OkHttpClient.Builder()
        .connectTimeout(properties.getTimeout())
        .readTimeout(properties.getTimeout())
        .callTimeout(properties.getTimeout().multipliedBy(2))
        .followRedirects(false)
        .build();
    return new WebhookJob(repository, http,
        properties.hasSecret() ? new WebhookSigner(properties.getSecret()) : null,
        properties.isIncludeToken(), clock);
  }

  @Bean
  public WebhookListenerRegistration webhookListenerRegistration(
      SolveNotifications notifications, SolveRepository repository, DataSource dataSource,
      JobRequestScheduler scheduler, WebhookProperties properties, Clock clock) {
    WebhookTrigger trigger =
        new WebhookTrigger(repository, dataSource, scheduler, properties.getRetries(), clock);
    return new WebhookListenerRegistration(notifications.addListener(trigger));
  }

  /** Removes the listener when the context closes. */
  public record WebhookListenerRegistration(AutoCloseable handle) implements DisposableBean {
    @Override
    public void destroy() throws Exception {
      handle.close();
    }
  }
}
