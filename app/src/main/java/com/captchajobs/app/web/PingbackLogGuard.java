package com.captchajobs.app.web;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import com.captchajobs.core.pingback.PingbackReceiver;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Keeps pushed answers out of the log at any level (see "What a log shows" in docs/pingback.md).
 * {@link PingbackFilter} answers a push before Spring Security or Spring MVC see it, but Tomcat's
 * own DEBUG logging quotes raw request bytes: the request line with its query, and any body read
 * with it. This guard denies, at DEBUG and TRACE, every line of Tomcat's connector packages and
 * every line that names the pingback path, so {@code logging.level.org.apache=DEBUG} (or {@code
 * org.springframework.web}, {@code org.springframework.security}) shows no pushed answer and no
 * signed URL. INFO and above pass untouched. Installed once into Logback, the app node's logging.
 */
final class PingbackLogGuard extends TurboFilter {

  /** Tomcat's packages that log raw request bytes at DEBUG. */
  private static final String[] RAW_BYTES = {"org.apache.coyote", "org.apache.tomcat.util.net"};

  /** Adds the guard to Logback when Logback is the logging in use; idempotent. */
  static void install() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      return;
    }
    for (TurboFilter f : context.getTurboFilterList()) {
      if (f instanceof PingbackLogGuard) {
        return;
      }
    }
    PingbackLogGuard guard = new PingbackLogGuard();
    guard.setName("captchajobs-pingback-log-guard");
    guard.start();
    context.addTurboFilter(guard);
  }

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (level == null || level.isGreaterOrEqual(Level.INFO)) {
      return FilterReply.NEUTRAL;
    }
    String name = logger.getName();
    for (String prefix : RAW_BYTES) {
      if (name.startsWith(prefix)) {
        return FilterReply.DENY;
      }
    }
    if (format != null && format.contains(PingbackReceiver.PATH)) {
      return FilterReply.DENY;
    }
    if (params != null) {
      for (Object p : params) {
        if (p != null && String.valueOf(p).contains(PingbackReceiver.PATH)) {
          return FilterReply.DENY;
        }
      }
    }
    return FilterReply.NEUTRAL;
  }
}
