package com.captchajobs.worker.config;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Our defaults, below anything the user sets, and the API key from {@code CAPTCHAAI_API_KEY}
 * (relaxed binding alone would look for CAPTCHAAI_APIKEY).
 */
public class CaptchaJobsEnvironment implements EnvironmentPostProcessor {

  public static final String API_KEY_ENV = "CAPTCHAAI_API_KEY";

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    String key = environment.getProperty(API_KEY_ENV);
    if (key != null && !key.isBlank()) {
      MapPropertySource fromEnv = new MapPropertySource("captchajobs-api-key-env", Map.of("captchaai.api-key", key));
      if (environment.getPropertySources().contains(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
        environment.getPropertySources().addAfter(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, fromEnv);
      } else {
        environment.getPropertySources().addLast(fromEnv);
      }
    }
    Map<String, Object> defaults = new HashMap<>();
    // JobRunr's minimum on SQL storage; poll jobs are scheduled early and wait in-process for the rest.
    defaults.put("jobrunr.background-job-server.poll-interval-in-seconds", "5");
    // Poll jobs wait in their worker thread for their intended instant (about pollLead per poll).
    defaults.put("jobrunr.background-job-server.worker-count", "64");
    defaults.put("jobrunr.background-job-server.name", "captchajobs-" + host() + "-" + pid());
    defaults.put("jobrunr.miscellaneous.allow-anonymous-data-usage", "false");
    defaults.put("management.endpoints.web.exposure.include", "health,info,metrics,prometheus,breaker");
    defaults.put("management.endpoint.health.show-details", "always");
    // JobRunr's own per-state job gauges (jobrunr.jobs.by-state), for alerts on dead jobs.
    defaults.put("jobrunr.jobs.metrics.enabled", "true");
    // Boot moves "defaultProperties" (SpringApplication.setDefaultProperties, builder properties)
    // to the very end after this runs: never shadow a key that is set anywhere, even there.
    defaults.keySet().removeIf(environment::containsProperty);
    environment.getPropertySources().addLast(new MapPropertySource("captchajobs-defaults", defaults));
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      return "localhost";
    }
  }

  private static String pid() {
    return String.valueOf(ProcessHandle.current().pid());
  }

}
