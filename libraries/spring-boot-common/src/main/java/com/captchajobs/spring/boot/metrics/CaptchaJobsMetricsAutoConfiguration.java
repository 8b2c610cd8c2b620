package com.captchajobs.spring.boot.metrics;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Operations;
import com.captchajobs.core.events.EngineListener;
import com.captchajobs.spring.boot.CaptchaAiProperties;
import com.captchajobs.spring.boot.CaptchaJobsAutoConfiguration;
import com.captchajobs.spring.boot.ProvidersProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters under {@code captchajobs.*}, only where Micrometer is on the class path: the
 * engine's events (submits, solves, errors, polls, hand-offs, token age) and, on a worker, the
 * gate, breaker and plan gauges. Both find the application's registry when it has one and do
 * nothing otherwise; the host's other meters are left alone.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration", // Boot 4
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration" // Boot 3
    },
    before = CaptchaJobsAutoConfiguration.class)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(name = "captchajobs.enabled", matchIfMissing = true)
public class CaptchaJobsMetricsAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(EngineListener.class)
  public EngineListener captchaJobsEngineEvents(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry r = registry.getIfUnique();
    return r == null ? EngineListener.NONE : new MeteredEngineEvents(r);
  }

  @Bean
  public MeterBinder captchaJobsGauges(
      ObjectProvider<CaptchaJobs> captchaJobs,
      ObjectProvider<CaptchaAiProperties> captchaAi,
      ObjectProvider<ProvidersProperties> providers) {
    return registry ->
        captchaJobs.ifAvailable(
            instance -> {
              Operations operations = instance.operations();
              operations
                  .worker()
                  .ifPresent(
                      worker -> {
                        new EngineGauges(operations, worker).bindTo(registry);
                        // the spend of each priced provider and type, 0 from startup
                        ProvidersProperties configured = providers.getIfAvailable();
                        if (configured != null) {
                          if (!configured.getProviders().isEmpty()) {
                            List<String> names = new ArrayList<>(List.of("captchaai"));
                            names.addAll(configured.getProviders().keySet());
                            new ProviderGauges(operations, names).bindTo(registry);
                          }
                          configured
                              .priced()
                              .forEach(
                                  (name, types) ->
                                      types.forEach(
                                          type -> MeteredEngineEvents.spend(registry, name, type)));
                        }
                        // read from the pingback group, as the node was built from it
                        CaptchaAiProperties properties = captchaAi.getIfAvailable();
                        boolean pushConfigured =
                            properties != null && properties.toPingbacks().asksForPushes();
                        Gauge.builder(
                                "captchajobs.pingback.configured", () -> pushConfigured ? 1 : 0)
                            .description(
                                "1 when this worker asks for pushes (captchaai.pingback-url set)")
                            .register(registry);
                      });
            });
  }
}
