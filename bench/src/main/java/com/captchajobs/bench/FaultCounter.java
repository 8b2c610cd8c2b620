package com.captchajobs.bench;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.captchajobs.core.client.ErrorClass;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/**
 * Counts the in.php calls the simulator answered with {@code LOST_RESPONSE} (task created, reply
 * lost), from its per-request debug line (which shows a key fingerprint, never the key). Those
 * tasks are real duplicates when the worker retries the submit; the report lists them apart. It
 * also counts the permanent codes delivered, per endpoint and code.
 */
final class FaultCounter extends AppenderBase<ILoggingEvent> implements AutoCloseable {

  private static final String LOGGER = "com.captchajobs.simulator.ApiHandler";

  private final AtomicLong lostResponses = new AtomicLong();
  private final Map<String, AtomicLong> permanentAnswers = new ConcurrentHashMap<>();
  private final Logger logger;
  private final Level previousLevel;
  private final boolean previousAdditive;

  FaultCounter() {
    logger = (Logger) LoggerFactory.getLogger(LOGGER);
    previousLevel = logger.getLevel();
    previousAdditive = logger.isAdditive();
    setContext(logger.getLoggerContext());
    setName("bench-fault-counter");
    start();
    logger.addAppender(this);
    logger.setLevel(Level.DEBUG);
    logger.setAdditive(false); // count the lines, do not print one per request
  }

  @Override
  protected void append(ILoggingEvent event) {
    String m = event.getFormattedMessage();
    boolean lost = m.contains("fault=LOST_RESPONSE");
    if (m.contains(" in.php ") && lost) {
      lostResponses.incrementAndGet();
    }
    int arrow = m.lastIndexOf(" -> ");
    if (arrow < 0 || lost) {
      return;
    }
    String outcome = m.substring(arrow + 4).replaceAll(" \\(\\d+ ms\\)$", "");
    if (outcome.startsWith("ERROR") && ErrorClass.of(outcome).permanent()) {
      String endpoint = m.contains(" in.php ") ? "in.php" : "res.php";
      permanentAnswers
          .computeIfAbsent(endpoint + " " + outcome, k -> new AtomicLong())
          .incrementAndGet();
    }
  }

  long lostResponses() {
    return lostResponses.get();
  }

  /**
   * Permanent codes the simulator delivered (a lost reply left out), by {@code "<endpoint>
   * <code>"}: a solve may be told each at most once.
   */
  Map<String, Long> permanentAnswers() {
    Map<String, Long> out = new TreeMap<>();
    permanentAnswers.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  @Override
  public void close() {
    logger.detachAppender(this);
    logger.setLevel(previousLevel);
    logger.setAdditive(previousAdditive);
    stop();
  }
}
