package com.captchajobs.spring.boot;

/** The dashboard was enabled without both basic-auth properties. */
public class MissingDashboardCredentialsException extends IllegalStateException {

  public static final String USERNAME_PROPERTY = "captchajobs.dashboard.username";
  public static final String PASSWORD_PROPERTY = "captchajobs.dashboard.password";

  private final boolean hasUsername;
  private final boolean hasPassword;

  public MissingDashboardCredentialsException(boolean hasUsername, boolean hasPassword) {
    super(
        USERNAME_PROPERTY
            + " and "
            + PASSWORD_PROPERTY
            + " are required when the CaptchaJobs dashboard is enabled (missing: "
            + missing(hasUsername, hasPassword)
            + ")");
    this.hasUsername = hasUsername;
    this.hasPassword = hasPassword;
  }

  private static String missing(boolean hasUsername, boolean hasPassword) {
    if (!hasUsername && !hasPassword) {
      return USERNAME_PROPERTY + ", " + PASSWORD_PROPERTY;
    }
    return hasUsername ? PASSWORD_PROPERTY : USERNAME_PROPERTY;
  }

  /** Whether the user name was set. */
  public boolean hasUsername() {
    return hasUsername;
  }

  /** Whether the password was set. */
  public boolean hasPassword() {
    return hasPassword;
  }
}
