package com.captchajobs.spring.boot;

import com.captchajobs.core.Solves;
import com.captchajobs.core.internal.engine.SolveEnqueuer;
import com.captchajobs.core.internal.engine.SolveRepository;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.spring.boot.SolveNotificationsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Gives any Boot app with the app artifact and a {@code spring.datasource.*} a {@link Solves}
 * bean. No worker runs unless {@code jobrunr.background-job-server.enabled=true}.
 */
@AutoConfiguration(after = SolveNotificationsAutoConfiguration.class)
@ConditionalOnBean({SolveEnqueuer.class, SolveNotifications.class})
public class SolvesAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  public Solves solves(
      SolveEnqueuer enqueuer, SolveRepository repository, SolveNotifications notifications, Clock clock,
      ObjectProvider<MeterRegistry> meters) {
    return new Solves(enqueuer, repository, notifications, clock, meters.getIfAvailable());
  }
}
