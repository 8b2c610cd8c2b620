package com.captchajobs.console.server;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts what the dashboard refused, and logs the counts at most once a minute ({@link #flush}, on
 * the watchdog's schedule). Nothing a caller chose (method, path, header) is ever logged: a flood
 * of refusals is one line a minute, and no line can be forged.
 */
final class Refusals {

  private static final Logger log = LoggerFactory.getLogger(DashboardServer.class);

  /** Why a request or connection was refused. */
  enum Reason {
    CROSS_SITE,
    BODY_TOO_LARGE,
    BUSY,
    DEADLINE,
    LOGIN_FAILED,
    LOGIN_THROTTLED
  }

  private final Map<Reason, AtomicLong> counts = new EnumMap<>(Reason.class);
  private final Map<Reason, AtomicLong> totals = new EnumMap<>(Reason.class);

  Refusals() {
    for (Reason r : Reason.values()) {
      counts.put(r, new AtomicLong());
      totals.put(r, new AtomicLong());
    }
  }

  void note(Reason reason) {
    counts.get(reason).incrementAndGet();
    totals.get(reason).incrementAndGet();
  }

  /** Refusals of this reason since the dashboard started. */
  long total(Reason reason) {
    return totals.get(reason).get();
  }

  /** Logs the counts since the last flush, if any; called once a minute and on close. */
  void flush() {
    StringBuilder line = new StringBuilder();
    for (Reason r : Reason.values()) {
      long n = counts.get(r).getAndSet(0);
      if (n > 0) {
        line.append(line.length() == 0 ? "" : ", ").append(r.name()).append(' ').append(n);
      }
    }
    if (line.length() > 0) {
      log.warn("Dashboard refusals in the last minute: {}", line);
    }
  }
}
