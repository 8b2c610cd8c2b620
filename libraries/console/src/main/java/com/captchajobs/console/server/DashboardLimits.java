package com.captchajobs.console.server;

import java.time.Duration;

/**
 * What one caller of the dashboard may take before it has shown a password, and after: worker
 * threads, waiting connections, the bytes of a request body, the time to send headers and body, and
 * failed logins per client address.
 *
 * @param threads worker threads serving exchanges
 * @param queue exchanges waiting for a worker; beyond that a connection is closed at once
 * @param maxBody bytes of a request body read at most; a longer body is answered 413 unread
 * @param headerDeadline time from a connection's request start to its last header
 * @param bodyDeadline time to send a request body
 * @param failedLogins failed basic-auth attempts per client address per minute; then 429
 */
public record DashboardLimits(
    int threads,
    int queue,
    int maxBody,
    Duration headerDeadline,
    Duration bodyDeadline,
    int failedLogins) {

  /** The dashboard's limits: 8 threads, 32 waiting, 16 KiB bodies, 10 s deadlines, 10 logins. */
  public static final DashboardLimits DEFAULT =
      new DashboardLimits(8, 32, 16 * 1024, Duration.ofSeconds(10), Duration.ofSeconds(10), 10);
}
