package com.captchajobs.spring.boot;

/** The dashboard was enabled without both basic-auth properties, outside a sandbox. */
public class MissingDashboardCredentialsException extends IllegalStateException {

  private final boolean hasUsername;
  private final boolean hasPassword;

  public MissingDashboardCredentialsException(boolean hasUsername, boolean hasPassword) {
    super(DashboardCredentials.USERNAME_PROPERTY + " and " + DashboardCredentials.PASSWORD_PROPERTY
        + " are required when the JobRunr dashboard is enabled (missing: " + missing(hasUsername, hasPassword)
        + "); set both, or set " + DashboardCredentials.SANDBOX_PROPERTY + "=true to generate them");
    this.hasUsername = hasUsername;
    this.hasPassword = hasPassword;
  }

  private static String missing(boolean hasUsername, boolean hasPassword) {
    if (!hasUsername && !hasPassword) {
      return DashboardCredentials.USERNAME_PROPERTY + ", " + DashboardCredentials.PASSWORD_PROPERTY;
    }
    return hasUsername ? DashboardCredentials.PASSWORD_PROPERTY : DashboardCredentials.USERNAME_PROPERTY;
  }

  /** Whether {@code jobrunr.dashboard.username} was set. */
  public boolean hasUsername() {
    return hasUsername;
  }

  /** Whether {@code jobrunr.dashboard.password} was set. */
  public boolean hasPassword() {
    return hasPassword;
  }
}
