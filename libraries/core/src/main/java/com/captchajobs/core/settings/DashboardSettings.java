package com.captchajobs.core.settings;

import static com.captchajobs.core.settings.InvalidSettingException.require;

/**
 * JobRunr's dashboard over CaptchaJobs' jobs and the operator console, on a port of its own behind
 * basic authentication (served by {@code captchajobs-console}). Its defaults are the {@code
 * DEFAULT_} constants here; the Spring Boot starter binds it from {@code captchajobs.dashboard.*}.
 * Its {@link Builder} methods describe the components.
 *
 * @throws InvalidSettingException naming the builder method of a value that cannot work
 */
public record DashboardSettings(int port, String address, String username, String password) {

  public static final int DEFAULT_PORT = 8000;

  /** The shortest password accepted. */
  public static final int MIN_PASSWORD_CHARS = 12;

  public DashboardSettings {
    require(port >= 0 && port <= 65535, "{DashboardSettings.port(int)} must be 0 to 65535");
    require(
        username != null && !username.isBlank(),
        "{DashboardSettings.username(String)} is required");
    require(
        password != null && !password.isBlank(),
        "{DashboardSettings.password(String)} is required");
    require(
        password.length() >= MIN_PASSWORD_CHARS,
        "{DashboardSettings.password(String)} must be at least %s characters (it has %s)"
            .formatted(MIN_PASSWORD_CHARS, password.length()));
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these settings. */
  public Builder toBuilder() {
    return new Builder().port(port).address(address).username(username).password(password);
  }

  /** Never the password. */
  @Override
  public String toString() {
    return "DashboardSettings{port=%s, address=%s, username=%s, password=***}"
        .formatted(port, address, username);
  }

  /** Every value of a {@link DashboardSettings}, each starting at its default. */
  public static final class Builder {

    private int port = DEFAULT_PORT;
    private String address = null;
    private String username = null;
    private String password = null;

    private Builder() {}

    /** Its HTTP port; 8000. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** The address it binds; unset: loopback (127.0.0.1). */
    public Builder address(String address) {
      this.address = address;
      return this;
    }

    /** Basic-auth user; required. */
    public Builder username(String username) {
      this.username = username;
      return this;
    }

    /** Basic-auth password, at least 12 characters; required. */
    public Builder password(String password) {
      this.password = password;
      return this;
    }

    /**
     * @throws InvalidSettingException naming the builder method of a value that cannot work
     */
    public DashboardSettings build() {
      return new DashboardSettings(port, address, username, password);
    }
  }
}
