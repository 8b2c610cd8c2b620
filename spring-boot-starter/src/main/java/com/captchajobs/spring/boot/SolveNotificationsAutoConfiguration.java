package com.captchajobs.spring.boot;

import com.captchajobs.spring.boot.CaptchaJobsAutoConfiguration;
import com.captchajobs.core.internal.engine.Solve;
import com.captchajobs.core.internal.engine.SolveRepository;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** One {@link SolveNotifications} listener per node that shares the database. */
@AutoConfiguration(after = CaptchaJobsAutoConfiguration.class)
@ConditionalOnBean({DataSource.class, SolveRepository.class})
public class SolveNotificationsAutoConfiguration {

  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnMissingBean
  public SolveNotifications solveNotifications(DataSource dataSource, SolveRepository repository) {
    return new SolveNotifications(
        DedicatedConnections.of(dataSource), id -> repository.find(id).map(Solve::status));
  }
}
