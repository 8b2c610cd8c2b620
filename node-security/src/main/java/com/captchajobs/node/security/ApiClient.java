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
 */
public record ApiClient(
    String name,
    Set<ApiRole> roles,
    double rate,
    int burst,
    int maxUnfinished,
    int maxPriority,
    int maxStreams) {

  public ApiClient {
    roles = Set.copyOf(roles);
  }

  public boolean has(ApiRole role) {
    return roles.contains(role);
  }
}
