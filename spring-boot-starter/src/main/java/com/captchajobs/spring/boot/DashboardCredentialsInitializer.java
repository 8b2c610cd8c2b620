package com.captchajobs.spring.boot;

import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Refuses to build a context that would serve the JobRunr dashboard without basic auth. Runs
 * before any bean exists and after logging is set up, so the failure analysis is printed; in a
 * sandbox ({@code captchajobs.sandbox=true}) it generates the credentials and logs them once.
 */
public class DashboardCredentialsInitializer
    implements ApplicationContextInitializer<ConfigurableApplicationContext> {

  static final String GENERATED_SOURCE = "captchajobs-generated-dashboard-credentials";

  private static final Logger log = LoggerFactory.getLogger(DashboardCredentialsInitializer.class);

  @Override
  public void initialize(ConfigurableApplicationContext context) {
    ConfigurableEnvironment env = context.getEnvironment();
    if (!env.getProperty("jobrunr.dashboard.enabled", Boolean.class, false)) {
      return;
    }
    DashboardCredentials credentials = DashboardCredentials.resolve(
        env.getProperty(DashboardCredentials.USERNAME_PROPERTY),
        env.getProperty(DashboardCredentials.PASSWORD_PROPERTY),
        env.getProperty(DashboardCredentials.SANDBOX_PROPERTY, Boolean.class, false));
    if (credentials.generated()) {
      env.getPropertySources().addFirst(new MapPropertySource(GENERATED_SOURCE, Map.of(
          DashboardCredentials.USERNAME_PROPERTY, credentials.username(),
          DashboardCredentials.PASSWORD_PROPERTY, credentials.password())));
      log.warn("Sandbox: JobRunr dashboard on port {} with generated credentials user={} password={}"
              + " (set {} and {} outside the sandbox)",
          env.getProperty("jobrunr.dashboard.port", "8000"), credentials.username(), credentials.password(),
          DashboardCredentials.USERNAME_PROPERTY, DashboardCredentials.PASSWORD_PROPERTY);
    }
  }
}
