package com.captchajobs.core.settings;

import static com.captchajobs.core.settings.InvalidSettingException.require;

import java.time.Duration;

/**
 * The retention pass of worker nodes: which final solves (with their tokens, poll timings and slot
 * hand-off rows) are deleted, and how often the pass runs (one node of the fleet at a time). Its
 * defaults are the {@code DEFAULT_} constants here; the Spring Boot starter binds it from {@code
 * captchajobs.retention} and {@code captchajobs.retention-interval}. Its {@link Builder} methods
 * describe the components.
 *
 * @throws InvalidSettingException naming the builder method of a value that cannot work
 */
public record RetentionSettings(Duration retention, Duration retentionInterval) {

  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
  public static final Duration DEFAULT_RETENTION_INTERVAL = Duration.ofHours(1);

  public RetentionSettings {
    require(
        retention != null && retention.compareTo(Duration.ofHours(1)) >= 0,
        "{RetentionSettings.retention(Duration)} must be at least 1h");
    require(
        retentionInterval != null && retentionInterval.compareTo(Duration.ofSeconds(1)) >= 0,
        "{RetentionSettings.retentionInterval(Duration)} must be at least 1s");
  }

  /** Every value at its default. */
  public static RetentionSettings defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these settings. */
  public Builder toBuilder() {
    return new Builder().retention(retention).retentionInterval(retentionInterval);
  }

  /** Every value of a {@link RetentionSettings}, each starting at its default. */
  public static final class Builder {

    private Duration retention = DEFAULT_RETENTION;
    private Duration retentionInterval = DEFAULT_RETENTION_INTERVAL;

    private Builder() {}

    /** Age after which worker nodes delete final solves, at least 1 h; 7 days. */
    public Builder retention(Duration retention) {
      this.retention = retention;
      return this;
    }

    /** How often a worker node runs the retention pass (one node at a time), at least 1 s; 1 h. */
    public Builder retentionInterval(Duration retentionInterval) {
      this.retentionInterval = retentionInterval;
      return this;
    }

    /**
     * @throws InvalidSettingException naming the builder method of a value that cannot work
     */
    public RetentionSettings build() {
      return new RetentionSettings(retention, retentionInterval);
    }
  }
}
