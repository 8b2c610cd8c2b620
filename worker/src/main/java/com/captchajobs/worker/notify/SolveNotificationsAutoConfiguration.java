package com.captchajobs.worker.notify;

import com.captchajobs.worker.config.CaptchaJobsAutoConfiguration;
import com.captchajobs.worker.engine.Solve;
import com.captchajobs.worker.engine.SolveRepository;
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
