package com.captchajobs.app.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/** The REST API of the app node, under {@code captchajobs.api.*}. */
@ConfigurationProperties("captchajobs.api")
public class ApiProperties {

  /** Shortest bearer token accepted in the configuration. */
  public static final int MIN_TOKEN_LENGTH = 16;

  /**
   * Bearer tokens accepted in {@code Authorization: Bearer <token>}, comma-separated (at least 16
   * characters each). The sandbox generates one when unset.
   */
  private List<String> tokens = new ArrayList<>();

  /**
   * Bearer tokens of operators, comma-separated (at least 16 characters each): they reach {@code
   * /api/admin/**} as well as the rest of the API. Empty: the operator views answer 403 to
   * everyone.
   */
  private List<String> operatorTokens = new ArrayList<>();

  /** Largest request body accepted; larger ones get 413. */
  private DataSize maxBodySize = DataSize.ofKilobytes(256);

  /** How long a server-sent event stream stays open without reaching a final status. */
  private Duration eventsTimeout = Duration.ofMinutes(5);

  /** Rejects bad values naming the key. */
  public void validate() {
    if (tokens == null || tokens.stream().noneMatch(t -> t != null && !t.isBlank())) {
      throw new IllegalStateException(
          "captchajobs.api.tokens must list at least one bearer token"
              + " (comma-separated, at least "
              + MIN_TOKEN_LENGTH
              + " characters each)");
    }
    for (String t : tokens) {
      if (t != null && !t.isBlank() && t.strip().length() < MIN_TOKEN_LENGTH) {
        throw new IllegalStateException(
            "captchajobs.api.tokens: every token must have at least "
                + MIN_TOKEN_LENGTH
                + " characters");
      }
    }
    for (String t : operatorTokens == null ? List.<String>of() : operatorTokens) {
      if (t != null && !t.isBlank() && t.strip().length() < MIN_TOKEN_LENGTH) {
        throw new IllegalStateException(
            "captchajobs.api.operator-tokens: every token must have at least "
                + MIN_TOKEN_LENGTH
                + " characters");
      }
    }
    if (maxBodySize == null || maxBodySize.toBytes() < 1024) {
      throw new IllegalStateException("captchajobs.api.max-body-size must be at least 1KB");
    }
    if (eventsTimeout == null || eventsTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalStateException("captchajobs.api.events-timeout must be at least 1s");
    }
  }

  /** The configured tokens, trimmed, empty entries dropped. */
  public List<String> activeTokens() {
    return tokens.stream().filter(t -> t != null && !t.isBlank()).map(String::strip).toList();
  }

  /** The configured operator tokens, trimmed, empty entries dropped. */
  public List<String> activeOperatorTokens() {
    return operatorTokens == null
        ? List.of()
        : operatorTokens.stream()
            .filter(t -> t != null && !t.isBlank())
            .map(String::strip)
            .toList();
  }

  public List<String> getOperatorTokens() {
    return operatorTokens;
  }

  public void setOperatorTokens(List<String> operatorTokens) {
    this.operatorTokens = operatorTokens;
  }

  @Override
  public String toString() {
    return "ApiProperties[tokens="
        + activeTokens().size()
        + " configured, operatorTokens="
        + activeOperatorTokens().size()
        + " configured, maxBodySize="
        + maxBodySize
        + ", eventsTimeout="
        + eventsTimeout
        + "]";
  }

  public List<String> getTokens() {
    return tokens;
  }

  public void setTokens(List<String> tokens) {
    this.tokens = tokens;
  }

  public DataSize getMaxBodySize() {
    return maxBodySize;
  }

  public void setMaxBodySize(DataSize maxBodySize) {
    this.maxBodySize = maxBodySize;
  }

  public Duration getEventsTimeout() {
    return eventsTimeout;
  }

  public void setEventsTimeout(Duration eventsTimeout) {
    this.eventsTimeout = eventsTimeout;
  }
}
