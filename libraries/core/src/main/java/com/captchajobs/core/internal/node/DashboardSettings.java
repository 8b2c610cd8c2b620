package com.captchajobs.core.internal.node;

/**
 * JobRunr's dashboard over our jobs, behind basic authentication.
 *
 * @param port its own HTTP port
 * @param address the address it binds, or null for loopback
 * @param username basic-auth user
 * @param password basic-auth password
 */
public record DashboardSettings(int port, String address, String username, String password) {

  /** Never the password. */
  @Override
  public String toString() {
    return "DashboardSettings{port="
        + port
        + ", address="
        + address
        + ", username="
        + username
        + ", password=***}";
  }
}
