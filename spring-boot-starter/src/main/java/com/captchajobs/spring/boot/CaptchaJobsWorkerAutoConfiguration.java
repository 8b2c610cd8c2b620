package com.captchajobs.spring.boot;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.internal.engine.Breaker;
import com.captchajobs.core.internal.engine.EngineEvents;
import com.captchajobs.core.internal.engine.EngineSettings;
import com.captchajobs.core.internal.engine.FirstPollWaits;
import com.captchajobs.core.internal.engine.FleetGate;
import com.captchajobs.spring.boot.MeteredEngineEvents;
import com.captchajobs.core.internal.engine.PermanentErrorRetryFilter;
import com.captchajobs.core.internal.engine.PlanCheck;
import com.captchajobs.core.internal.engine.PollJob;
import com.captchajobs.core.internal.engine.Reconciler;
import com.captchajobs.core.internal.engine.SlotHandoff;
import com.captchajobs.core.internal.engine.SolveJobs;
import com.captchajobs.core.internal.engine.SolveRepository;
import com.captchajobs.core.internal.engine.SubmitJob;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.server.JobActivator;
import org.jobrunr.spring.autoconfigure.JobRunrAutoConfiguration;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.utils.mapper.JsonMapper;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * A worker node: the CaptchaAI client, the fleet gate, the breaker, the submit and poll jobs, and
 * our own JobRunr BackgroundJobServer carrying {@link PermanentErrorRetryFilter} (the starter
 * ignores filter beans, jobrunr-notes §1). Active where {@code
 * jobrunr.background-job-server.enabled=true}.
 */
@AutoConfiguration(after = CaptchaJobsAutoConfiguration.class, before = JobRunrAutoConfiguration.class)
@ConditionalOnProperty(prefix = "jobrunr.background-job-server", name = "enabled", havingValue = "true")
public class CaptchaJobsWorkerAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  public CaptchaAiClient captchaAiClient(CaptchaAiProperties properties) {
    properties.validateApiKey();
    return CaptchaAiClient.builder()
        .apiKey(properties.getApiKey())
        .baseUrl(properties.getBaseUrl())
        .connectTimeout(properties.getConnectTimeout())
        .readTimeout(properties.getReadTimeout())
        .build();
  }

  @Bean
  public EngineSettings engineSettings(CaptchaAiProperties properties) {
    return properties.toSettings();
  }

  @Bean
  public EngineEvents engineEvents(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry r = registry.getIfAvailable();
    return r == null ? EngineEvents.NONE : new MeteredEngineEvents(r);
  }

  /** No inferred destroy method: closing the breaker is an operator's decision, not a shutdown step. */
  @Bean(destroyMethod = "")
  public Breaker breaker(DataSource dataSource, CaptchaAiClient client) {
    return new Breaker(dataSource, client.keyFingerprint());
  }

  @Bean
  public FleetGate fleetGate(
      DataSource dataSource,
      EngineSettings settings,
      @Value("${jobrunr.background-job-server.name}") String node) {
    return new FleetGate(dataSource, settings.lease(), node);
  }

  @Bean
  public SlotHandoff slotHandoff(FleetGate gate, SolveJobs jobs, SolveRepository repository) {
    return new SlotHandoff(gate, jobs, repository);
  }

  @Bean
  public FirstPollWaits firstPollWaits(EngineSettings settings, SolveRepository repository, Clock clock) {
    return new FirstPollWaits(settings, repository::recentSolved, clock);
  }

  @Bean
  public PlanCheck planCheck(CaptchaAiClient client, Breaker breaker, Clock clock, CaptchaAiProperties properties) {
    return new PlanCheck(client, breaker, clock, properties.getProviderCheckInterval());
  }

  @Bean
  public SubmitJob submitJob(
      SolveRepository repository, FleetGate gate, SlotHandoff handoff, Breaker breaker,
      CaptchaAiClient client, SolveJobs jobs, FirstPollWaits waits, PlanCheck planCheck,
      EngineSettings settings, EngineEvents events, Clock clock) {
    return new SubmitJob(repository, gate, handoff, breaker, client, jobs, waits, planCheck,
        settings, events, clock);
  }

  @Bean
  public PollJob pollJob(
      SolveRepository repository, SlotHandoff handoff, Breaker breaker, CaptchaAiClient client,
      SolveJobs jobs, EngineSettings settings, EngineEvents events, Clock clock) {
    return new PollJob(repository, handoff, breaker, client, jobs, settings, events, clock);
  }

  @Bean
  public Reconciler reconciler(
      SolveRepository repository, FleetGate gate, SlotHandoff handoff, SolveJobs jobs,
      EngineSettings settings, Clock clock) {
    return new Reconciler(repository, gate, handoff, jobs, settings.stuckAfter(), clock);
  }

  /** Our own server bean, so that our retry filter replaces the starter's (jobrunr-notes §1). */
  @Bean
  public BackgroundJobServer backgroundJobServer(
      StorageProvider storageProvider,
      JsonMapper jobRunrJsonMapper,
      JobActivator jobActivator,
      BackgroundJobServerConfiguration configuration,
      CaptchaAiProperties properties,
      FleetGate gate) {
    BackgroundJobServer server =
        new BackgroundJobServer(storageProvider, jobRunrJsonMapper, jobActivator, configuration);
    server.setJobFilters(List.of(new PermanentErrorRetryFilter(
        properties.getTransientRetries(), 3, properties.getMaxBackoff().toSeconds())));
    gate.serverId(server.getId());
    return server;
  }

  @Bean
  public WorkerStartup workerStartup(
      CaptchaAiProperties properties, FleetGate gate, PlanCheck planCheck, Breaker breaker,
      Reconciler reconciler) {
    return new WorkerStartup(properties, gate, planCheck, breaker, reconciler);
  }

  /** No inferred destroy method: shutting a node down must never close the fleet's breaker. */
  @Bean(destroyMethod = "")
  public BreakerEndpoint breakerEndpoint(Breaker breaker) {
    return new BreakerEndpoint(breaker);
  }

  @Bean
  EngineGauges captchaJobsGauges(FleetGate gate, Breaker breaker, PlanCheck planCheck) {
    return new EngineGauges(gate, breaker, planCheck);
  }

  @Bean
  public BreakerHealthIndicator breakerHealthIndicator(Breaker breaker, FleetGate gate, PlanCheck planCheck) {
    return new BreakerHealthIndicator(breaker, gate, planCheck);
  }
}
