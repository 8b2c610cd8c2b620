package com.captchajobs.node.security;

import java.util.Set;

/**
 * One authenticated API client: its name (the owner of the solves it enqueues), its roles and its
 * limits. Never carries a token or a secret, so it can be printed and logged.
 *
 * @param name the client's name, {@code <name>} of {@code captchajobs.api.clients.<name>.*}
 * @param roles what it may do
 * @param rate enqueues per second it may sustain
 * @param burst enqueues it may make at once above the rate
 * @param maxUnfinished solves it may have queued, waiting or submitted at the same time
 * @param maxPriority highest priority it may give a solve
 * @param maxStreams server-sent event streams it may hold open at the same time (per node)
 * @param readRate reads (status, claims, event streams opened) per second it may sustain
 * @param readBurst reads it may make at once above the read rate
 */
public record ApiClient(
    String name,
    Set<ApiRole> roles,
    double rate,
    int burst,
    int maxUnfinished,
    int maxPriority,
    int maxStreams,
    double readRate,
    int readBurst) {

  /** Reads allowed per second by default, per node. */
  public static final double DEFAULT_READ_RATE = 50;

  /** Reads allowed at once above the read rate by default. */
  public static final int DEFAULT_READ_BURST = 100;

  public ApiClient {
    roles = Set.copyOf(roles);
  }

  /** A client with the default read limits. */
  public ApiClient(
      String name,
      Set<ApiRole> roles,
      double rate,
      int burst,
      int maxUnfinished,
      int maxPriority,
      int maxStreams) {
    this(
        name,
        roles,
        rate,
        burst,
        maxUnfinished,
        maxPriority,
        maxStreams,
        DEFAULT_READ_RATE,
        DEFAULT_READ_BURST);
  }

  public boolean has(ApiRole role) {
    return roles.contains(role);
  }
}
