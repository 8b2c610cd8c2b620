package com.captchajobs.bench;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/**
 * Counts the in.php calls the simulator answered with {@code LOST_RESPONSE} (task created, reply
 * lost), from its per-request debug line (which shows a key fingerprint, never the key). Those
 * tasks are real duplicates when the worker retries the submit; the report lists them apart.
 */
final class FaultCounter extends AppenderBase<ILoggingEvent> implements AutoCloseable {

  private static final String LOGGER = "com.captchajobs.simulator.ApiHandler";

  private final AtomicLong lostResponses = new AtomicLong();
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
    if (m.contains(" in.php ") && m.contains("fault=LOST_RESPONSE")) {
      lostResponses.incrementAndGet();
    }
  }

  long lostResponses() {
    return lostResponses.get();
  }

  @Override
  public void close() {
    logger.detachAppender(this);
    logger.setLevel(previousLevel);
    logger.setAdditive(previousAdditive);
    stop();
  }
}
