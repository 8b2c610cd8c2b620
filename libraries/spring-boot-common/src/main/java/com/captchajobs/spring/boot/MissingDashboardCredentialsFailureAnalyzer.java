package com.captchajobs.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a dashboard started without credentials into a description and an action. */
public class MissingDashboardCredentialsFailureAnalyzer
    extends AbstractFailureAnalyzer<MissingDashboardCredentialsException> {

  @Override
  protected FailureAnalysis analyze(
      Throwable rootFailure, MissingDashboardCredentialsException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Set "
            + MissingDashboardCredentialsException.USERNAME_PROPERTY
            + " and "
            + MissingDashboardCredentialsException.PASSWORD_PROPERTY
            + " (for example CAPTCHAJOBS_DASHBOARD_USERNAME and CAPTCHAJOBS_DASHBOARD_PASSWORD in the"
            + " environment, never on a command line). The OSS dashboard has no roles: whoever logs"
            + " in can requeue and delete jobs, so put it behind a reverse proxy as well.",
        cause);
  }
}
