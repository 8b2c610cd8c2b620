package com.captchajobs.app.sandbox;

import com.captchajobs.core.Solves;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code --captchajobs.demo=true}: a {@link DemoBatch} once the node is up. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "captchajobs.demo", havingValue = "true")
public class DemoConfiguration {

  @Bean
  public ApplicationListener<ApplicationReadyEvent> captchaJobsDemo(Solves solves) {
    return event -> new DemoBatch(solves, Duration.ofMinutes(5)).start();
  }
}
