package com.captchajobs.node.security;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The API clients of a node, under {@code captchajobs.api.*}: named clients with their bearer
 * tokens, roles and limits ({@code captchajobs.api.clients.<name>.*}), and {@code
 * captchajobs.api.tokens}, the shorthand for one client named {@value #TOKENS_CLIENT} with the
 * client role.
 */
@ConfigurationProperties("captchajobs.api")
public class ApiClientsProperties {

  /** Shortest bearer token accepted in the configuration. */
  public static final int MIN_TOKEN_LENGTH = 16;

  /** The client that {@code captchajobs.api.tokens} defines. */
  public static final String TOKENS_CLIENT = "default";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  /**
   * Bearer tokens of one client named {@value #TOKENS_CLIENT} with the client role, comma-separated
   * (at least 16 characters each). The sandbox generates one when nothing is configured.
   */
  private List<String> tokens = new ArrayList<>();

  /** Named clients: {@code captchajobs.api.clients.<name>.token=<secret>} and so on. */
  private Map<String, Client> clients = new LinkedHashMap<>();

  /** One named client. */
  public static class Client {

    /**
     * Its bearer token (at least 16 characters). May be left out where only {@code webhook-secret}
     * is set: a worker node signs the client's webhooks without being able to authenticate it.
     */
    private String token;

    /** More bearer tokens of the same client, e.g. while rotating. */
    private List<String> tokens = new ArrayList<>();

    /** {@code client}, {@code operator}, or both (comma-separated). */
    private List<String> roles = new ArrayList<>(List.of("client"));

    // Its webhook-secret (captchajobs.api.clients.<name>.webhook-secret) is bound once, by the
    // starter's WebhookProperties, which signs with it; see toClients(Set).

    /** Enqueues per second it may sustain (token bucket, per node). */
    private double rate = 20;

    /** Enqueues it may make at once above the rate. */
    private int burst = 40;

    /** Solves it may have queued, waiting or submitted at the same time. */
    private int maxUnfinished = 1000;

    /** Highest priority it may give a solve (the range is -10..10). */
    private int maxPriority = 10;

    /** Server-sent event streams it may hold open at the same time, per node. */
    private int maxStreams = 20;

    /**
     * Reads per second it may sustain: status reads, claims and event streams opened (token bucket,
     * per node); over it the API answers 429 with Retry-After.
     */
    private double readRate = ApiClient.DEFAULT_READ_RATE;

    /** Reads it may make at once above the read rate. */
    private int readBurst = ApiClient.DEFAULT_READ_BURST;

    public double getReadRate() {
      return readRate;
    }

    public void setReadRate(double readRate) {
      this.readRate = readRate;
    }

    public int getReadBurst() {
      return readBurst;
    }

    public void setReadBurst(int readBurst) {
      this.readBurst = readBurst;
    }

    public String getToken() {
      return token;
    }

    public void setToken(String token) {
      this.token = token;
    }

    public List<String> getTokens() {
      return tokens;
    }

    public void setTokens(List<String> tokens) {
      this.tokens = tokens;
    }

    public List<String> getRoles() {
      return roles;
    }

    public void setRoles(List<String> roles) {
      this.roles = roles;
    }

    public double getRate() {
      return rate;
    }

    public void setRate(double rate) {
      this.rate = rate;
    }

    public int getBurst() {
      return burst;
    }

    public void setBurst(int burst) {
      this.burst = burst;
    }

    public int getMaxUnfinished() {
      return maxUnfinished;
    }

    public void setMaxUnfinished(int maxUnfinished) {
      this.maxUnfinished = maxUnfinished;
    }

    public int getMaxPriority() {
      return maxPriority;
    }

    public void setMaxPriority(int maxPriority) {
      this.maxPriority = maxPriority;
    }

    public int getMaxStreams() {
      return maxStreams;
    }

    public void setMaxStreams(int maxStreams) {
      this.maxStreams = maxStreams;
    }

    List<String> activeTokens() {
      List<String> all = new ArrayList<>();
      if (token != null && !token.isBlank()) {
        all.add(token.strip());
      }
      if (tokens != null) {
        tokens.stream().filter(t -> t != null && !t.isBlank()).map(String::strip).forEach(all::add);
      }
      return all;
    }
  }

  /**
   * The configured clients with their tokens, validated.
   *
   * @throws IllegalStateException naming the key of a bad value
   */
  /** The clients, none of them with only a webhook secret. */
  public ApiClients toClients() {
    return toClients(Set.of());
  }

  /**
   * The clients; a client named in {@code withWebhookSecret} (its {@code webhook-secret} is set,
   * bound by the starter's {@code WebhookProperties}) may have no token: a worker node needs only
   * its secret, and no one authenticates as it there.
   */
  public ApiClients toClients(Set<String> withWebhookSecret) {
    Map<String, List<String>> tokensByClient = new LinkedHashMap<>();
    Map<String, ApiClient> byName = new LinkedHashMap<>();
    List<String> shorthand = activeTokens();
    if (!shorthand.isEmpty()) {
      checkTokens("captchajobs.api.tokens", shorthand);
      Client defaults = new Client();
      byName.put(
          TOKENS_CLIENT,
          new ApiClient(
              TOKENS_CLIENT,
              Set.of(ApiRole.CLIENT),
              defaults.rate,
              defaults.burst,
              defaults.maxUnfinished,
              defaults.maxPriority,
              defaults.maxStreams,
              defaults.readRate,
              defaults.readBurst));
      tokensByClient.put(TOKENS_CLIENT, shorthand);
    }
    for (Map.Entry<String, Client> e : clients.entrySet()) {
      String name = e.getKey();
      String key = "captchajobs.api.clients." + name;
      Client c = e.getValue();
      if (!NAME.matcher(name).matches() || name.equals("java-api")) {
        throw new IllegalStateException(
            key + ": a client name is 1 to 100 letters, digits, '.', '_' or '-' and not java-api");
      }
      if (byName.containsKey(name)) {
        throw new IllegalStateException(
            key + ": the name " + TOKENS_CLIENT + " is taken by captchajobs.api.tokens");
      }
      List<String> tokens = c.activeTokens();
      if (tokens.isEmpty() && withWebhookSecret.contains(name)) {
        // Only its webhook secret, as a worker node needs it: no one authenticates as it here.
        continue;
      }
      if (tokens.isEmpty()) {
        throw new IllegalStateException(
            key
                + ".token must be set (a worker node may be given only "
                + key
                + ".webhook-secret)");
      }
      checkTokens(key + ".token", tokens);
      Set<ApiRole> roles = new LinkedHashSet<>();
      for (String r : c.roles == null ? List.<String>of() : c.roles) {
        ApiRole role = ApiRole.parse(r);
        if (role == null) {
          throw new IllegalStateException(
              key + ".roles: '" + r + "' is not a role (client, operator)");
        }
        roles.add(role);
      }
      if (roles.isEmpty()) {
        throw new IllegalStateException(key + ".roles must list client, operator or both");
      }
      if (!(c.rate > 0)) {
        throw new IllegalStateException(key + ".rate must be more than 0 (enqueues per second)");
      }
      if (c.burst < 1) {
        throw new IllegalStateException(key + ".burst must be at least 1");
      }
      if (c.maxUnfinished < 1) {
        throw new IllegalStateException(key + ".max-unfinished must be at least 1");
      }
      if (c.maxPriority < -10 || c.maxPriority > 10) {
        throw new IllegalStateException(key + ".max-priority must be between -10 and 10");
      }
      if (c.maxStreams < 0) {
        throw new IllegalStateException(key + ".max-streams must not be negative");
      }
      if (!(c.readRate > 0)) {
        throw new IllegalStateException(key + ".read-rate must be more than 0 (reads per second)");
      }
      if (c.readBurst < 1) {
        throw new IllegalStateException(key + ".read-burst must be at least 1");
      }
      byName.put(
          name,
          new ApiClient(
              name,
              roles,
              c.rate,
              c.burst,
              c.maxUnfinished,
              c.maxPriority,
              c.maxStreams,
              c.readRate,
              c.readBurst));
      tokensByClient.put(name, tokens);
    }
    Set<String> seen = new java.util.HashSet<>();
    for (Map.Entry<String, List<String>> e : tokensByClient.entrySet()) {
      for (String t : e.getValue()) {
        if (!seen.add(t)) {
          throw new IllegalStateException(
              "captchajobs.api.clients."
                  + e.getKey()
                  + ".token: the same token is configured for more than one client");
        }
      }
    }
    return new ApiClients(byName, tokensByClient);
  }

  private static void checkTokens(String key, List<String> tokens) {
    for (String t : tokens) {
      if (t.length() < MIN_TOKEN_LENGTH) {
        throw new IllegalStateException(
            key + ": every token must have at least " + MIN_TOKEN_LENGTH + " characters");
      }
    }
  }

  /** The shorthand tokens, trimmed, empty entries dropped. */
  public List<String> activeTokens() {
    return tokens == null
        ? List.of()
        : tokens.stream().filter(t -> t != null && !t.isBlank()).map(String::strip).toList();
  }

  @Override
  public String toString() {
    return "ApiClientsProperties[tokens="
        + activeTokens().size()
        + " configured, clients="
        + clients.keySet()
        + "]";
  }

  public List<String> getTokens() {
    return tokens;
  }

  public void setTokens(List<String> tokens) {
    this.tokens = tokens;
  }

  public Map<String, Client> getClients() {
    return clients;
  }

  public void setClients(Map<String, Client> clients) {
    this.clients = clients;
  }
}
