package com.captchajobs.spring.boot;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * The basic-auth credentials of a JobRunr dashboard. The OSS dashboard has no roles: anyone who
 * gets in can requeue or delete jobs, so a dashboard never runs without them.
 *
 * @param username value of {@code jobrunr.dashboard.username}
 * @param password value of {@code jobrunr.dashboard.password}
 * @param generated whether they were generated for a sandbox run rather than configured
 */
public record DashboardCredentials(String username, String password, boolean generated) {

  public static final String USERNAME_PROPERTY = "jobrunr.dashboard.username";
  public static final String PASSWORD_PROPERTY = "jobrunr.dashboard.password";
  public static final String SANDBOX_PROPERTY = "captchajobs.sandbox";

  /** User name of generated credentials. */
  public static final String SANDBOX_USERNAME = "captchajobs";

  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * The configured credentials; in a sandbox, generated ones when none are configured.
   *
   * @throws MissingDashboardCredentialsException when either is missing outside a sandbox
   */
  public static DashboardCredentials resolve(String username, String password, boolean sandbox) {
    boolean hasUsername = username != null && !username.isBlank();
    boolean hasPassword = password != null && !password.isBlank();
    if (hasUsername && hasPassword) {
      return new DashboardCredentials(username, password, false);
    }
    if (sandbox && !hasUsername && !hasPassword) {
      return new DashboardCredentials(SANDBOX_USERNAME, randomPassword(), true);
    }
    throw new MissingDashboardCredentialsException(hasUsername, hasPassword);
  }

  private static String randomPassword() {
    byte[] bytes = new byte[18];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  @Override
  public String toString() {
    return "DashboardCredentials[username=" + username + ", password=***, generated=" + generated + "]";
  }
}
