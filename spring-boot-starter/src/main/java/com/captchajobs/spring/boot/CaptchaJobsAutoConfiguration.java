package com.captchajobs.spring.boot;

import com.captchajobs.core.internal.engine.Schema;
import com.captchajobs.core.internal.engine.SolveEnqueuer;
import com.captchajobs.core.internal.engine.SolveJobs;
import com.captchajobs.core.internal.engine.SolveRepository;
import java.time.Clock;
import javax.sql.DataSource;
import org.jobrunr.scheduling.JobRequestScheduler;
import org.jobrunr.spring.autoconfigure.JobRunrAutoConfiguration;
import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson3.Jackson3JsonMapper;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * What every node that shares the database needs: our schema, the solve table and the job
 * scheduler of solves. Worker-only beans are in {@link CaptchaJobsWorkerAutoConfiguration}.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class, before = JobRunrAutoConfiguration.class)
@ConditionalOnBean(DataSource.class)
@EnableConfigurationProperties(CaptchaAiProperties.class)
public class CaptchaJobsAutoConfiguration {

  /** JobRunr's own JSON mapper on Jackson 3, declared so that no detection is needed (jobrunr-notes §9). */
  @Bean(name = "jobRunrJsonMapper")
  @ConditionalOnMissingBean(name = "jobRunrJsonMapper")
  public JsonMapper jobRunrJsonMapper() {
    return new Jackson3JsonMapper();
  }

  @Bean
  @ConditionalOnMissingBean
  public Clock captchaJobsClock() {
    return Clock.systemUTC();
  }

  @Bean
  public SolveRepository solveRepository(DataSource dataSource, CaptchaAiProperties properties) {
    properties.validate();
    Schema.migrate(dataSource);
    return new SolveRepository(dataSource);
  }

  @Bean
  public SolveJobs solveJobs(JobRequestScheduler scheduler, Clock clock, CaptchaAiProperties properties) {
    return new SolveJobs(scheduler, clock, properties.getPollLead(), properties.getTransientRetries());
  }

  @Bean
  public SolveEnqueuer solveEnqueuer(SolveRepository repository, SolveJobs jobs) {
    return new SolveEnqueuer(repository, jobs);
  }
}
