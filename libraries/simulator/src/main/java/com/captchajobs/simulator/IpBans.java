package com.captchajobs.simulator;

import java.util.concurrent.ConcurrentHashMap;

/**
 * CaptchaAI bans an IP that keeps sending wrong keys (docs: "lifted after 5 min"): after {@code
 * threshold} bad-key requests every request from that IP gets {@code IP_BANNED} until the ban ends.
 */
final class IpBans {
  private final int threshold;
  private final long banMillis;
  private final ConcurrentHashMap<String, State> byIp = new ConcurrentHashMap<>();

  IpBans(int threshold, long banMillis) {
    this.threshold = threshold;
    this.banMillis = banMillis;
  }

  boolean isBanned(String ip, long now) {
    State state = byIp.get(ip);
    return state != null && state.bannedUntil > now;
  }

  void badKey(String ip, long now) {
    byIp.compute(
        ip,
        (k, old) -> {
          State state =
              old == null || (old.bannedUntil != 0 && old.bannedUntil <= now) ? new State() : old;
          state.badKeys++;
          if (state.badKeys >= threshold) {
            state.bannedUntil = now + banMillis;
          }
          return state;
        });
  }

  void clear() {
    byIp.clear();
  }

  private static final class State {
    int badKeys;
    long bannedUntil;
  }
}
