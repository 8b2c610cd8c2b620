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
 * signed URL.
 *
 * <p>At INFO and above Tomcat's request readers quote raw bytes too: "Error parsing HTTP request
 * header" (once a day at INFO, then DEBUG) carries an exception quoting the whole request target,
 * {@code code=} included, and a parameter that fails to decode is quoted with its value. So at any
 * level a line of {@link #REQUEST_READERS} is withheld when it carries an exception, names the
 * pingback path, or comes from Tomcat's parameter and header parsers; at INFO and above a fixed
 * line of this class takes its place, naming only Tomcat's logger and the exception's class.
 * Tomcat's other lines (connector start and stop) pass untouched. Installed once into Logback, the
 * app node's logging.
 */
final class PingbackLogGuard extends TurboFilter {

  /** Tomcat's packages that log raw request bytes at DEBUG. */
  private static final String[] RAW_BYTES = {"org.apache.coyote", "org.apache.tomcat.util.net"};

  /** Tomcat's packages that read a request and may quote it at any level. */
  private static final String[] REQUEST_READERS = {
    "org.apache.coyote", "org.apache.tomcat.util.net", "org.apache.tomcat.util.http"
  };

  /** Tomcat's parsers of parameters and headers: every line of theirs is about request bytes. */
  private static final String PARSERS = "org.apache.tomcat.util.http";

  private static final org.slf4j.Logger WITHHELD = LoggerFactory.getLogger(PingbackLogGuard.class);

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
    if (level == null) {
      return FilterReply.NEUTRAL;
    }
    String name = logger.getName();
    if (startsWithAny(name, REQUEST_READERS)
        && (t != null || name.startsWith(PARSERS) || mentionsPath(format, params))) {
      if (level.isGreaterOrEqual(Level.INFO)) {
        withhold(level, name, t);
      }
      return FilterReply.DENY;
    }
    if (level.isGreaterOrEqual(Level.INFO)) {
      return FilterReply.NEUTRAL;
    }
    if (startsWithAny(name, RAW_BYTES) || mentionsPath(format, params)) {
      return FilterReply.DENY;
    }
    return FilterReply.NEUTRAL;
  }

  private static void withhold(Level level, String logger, Throwable t) {
    String line =
        "Tomcat's "
            + logger
            + " logged a line about a request it refused or failed ("
            + (t == null ? "no exception" : t.getClass().getName())
            + "); withheld: it may quote a pushed answer. Nothing of the request is shown";
    if (level.isGreaterOrEqual(Level.ERROR)) {
      WITHHELD.error(line);
    } else if (level.isGreaterOrEqual(Level.WARN)) {
      WITHHELD.warn(line);
    } else {
      WITHHELD.info(line);
    }
  }

  private static boolean startsWithAny(String name, String[] prefixes) {
    for (String prefix : prefixes) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  private static boolean mentionsPath(String format, Object[] params) {
    if (format != null && format.contains(PingbackReceiver.PATH)) {
      return true;
    }
    if (params != null) {
      for (Object p : params) {
        if (p != null && String.valueOf(p).contains(PingbackReceiver.PATH)) {
          return true;
        }
      }
    }
    return false;
  }
}
