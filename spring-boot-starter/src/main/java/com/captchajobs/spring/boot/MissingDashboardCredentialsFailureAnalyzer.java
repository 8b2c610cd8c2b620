package com.captchajobs.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a dashboard started without credentials into a description and an action. */
public class MissingDashboardCredentialsFailureAnalyzer
    extends AbstractFailureAnalyzer<MissingDashboardCredentialsException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, MissingDashboardCredentialsException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Set " + DashboardCredentials.USERNAME_PROPERTY + " and " + DashboardCredentials.PASSWORD_PROPERTY
            + " (for example JOBRUNR_DASHBOARD_USERNAME and JOBRUNR_DASHBOARD_PASSWORD in the environment)."
            + " The OSS dashboard has no roles: whoever logs in can requeue and delete jobs, so put it"
            + " behind a reverse proxy as well. For a local sandbox only, set "
            + DashboardCredentials.SANDBOX_PROPERTY + "=true to generate credentials.",
        cause);
  }
}
