package com.captchajobs.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

@Tag("unit")
class KeyNeverLoggedTest {
  static final String KEY = "secretkeysecretkeysecretkeysecre";

  @Test
  void requestLogLinesCarryAFingerprintInsteadOfTheKey() {
    Logger logger = (Logger) LoggerFactory.getLogger("com.captchajobs.simulator");
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try (CaptchaAiSimulator sim = CaptchaAiSimulator.builder().account(KEY, 2).build().start()) {
      ApiClient client = new ApiClient(sim.baseUrl());
      String id =
          client
              .submitJson(KEY, "method", "turnstile", "sitekey", "s", "pageurl", "https://log")
              .get("request")
              .asString();
      client.poll(KEY, id);
      client.submitJson(KEY.substring(1), "method", "turnstile");
    } finally {
      logger.detachAppender(appender);
    }
    List<String> lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(lines).anyMatch(l -> l.contains("in.php") && l.contains("key=secr…"));
    assertThat(lines).noneMatch(l -> l.contains(KEY) || l.contains(KEY.substring(1)));
  }
}
