package com.captchajobs.core.client;

import static com.captchajobs.core.client.Replies.KEY;
import static com.captchajobs.core.client.Replies.json;
import static com.captchajobs.core.client.Replies.ok;
import static com.captchajobs.core.client.Replies.status;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Runs good and bad calls with DEBUG logging on and searches everything printable for secrets. */
@Tag("unit")
class KeyNeverLeaksTest {

  private static final String TOKEN = "03AGdBq26-SECRET-TOKEN-zQ";
  private static final String PROXY_PASSWORD = "hunter2";

  @StartStop private final MockWebServer server = new MockWebServer();

  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Level previousLevel;

  @BeforeEach
  void captureAllLogsAtDebug() {
    previousLevel = root.getLevel();
    root.setLevel(Level.DEBUG);
    appender.start();
    root.addAppender(appender);
  }

  @AfterEach
  void restoreLogging() {
    root.detachAppender(appender);
    root.setLevel(previousLevel);
  }

  @Test
  void neitherLogLinesNorExceptionsContainTheKeyATokenOrAProxyPassword() {
    CaptchaAiClient client =
        CaptchaAiClient.builder()
            .apiKey(KEY)
            .baseUrl(server.url("/").toString())
            // generous against a loaded machine: only the stalled reply below may run into it
            .readTimeout(Duration.ofSeconds(2))
            .build();
    CaptchaTask task =
        new TurnstileTask(
            "0x4A",
            "https://example.com/",
            null,
            null,
            null,
            null,
            Proxy.http("bob:" + PROXY_PASSWORD + "@10.0.0.1:3128"));
    List<Object> printable = new ArrayList<>();

    server.enqueue(ok("{\"status\":1,\"request\":4242}"));
    server.enqueue(json(0, "CAPCHA_NOT_READY"));
    server.enqueue(
        ok("{\"status\":1,\"request\":\"x\",\"result\":\"" + TOKEN + "\",\"user_agent\":\"UA\"}"));
    server.enqueue(ok("{\"threads\":\"5\",\"working_threads\":2}"));
    server.enqueue(json(1, "1.5"));
    server.enqueue(json(0, "ERROR_DUPLICATE_REPORT"));
    server.enqueue(ok("{\"status\":1,\"request\":\"" + TOKEN + "\"}"));
    printable.add(client.submit(task));
    printable.add(client.get("4242"));
    printable.add(client.get("4242"));
    printable.add(client.threadsInfo());
    printable.add(client.balance());
    client.reportGood("4242");
    printable.add(client.get("4242"));

    // Failures, several of them echoing the key back as a misbehaving server might.
    server.enqueue(json(0, "ERROR_WRONG_USER_KEY"));
    server.enqueue(status(502, "<html><body>bad gateway for key=" + KEY + "</body></html>"));
    server.enqueue(status(500, "key " + KEY + " caused an error"));
    server.enqueue(ok("Your key " + KEY + " is invalid"));
    server.enqueue(ok("{\"status\":0,\"request\":\"bad key " + KEY + "\"}"));
    server.enqueue(ok(""));
    server.enqueue(
        new MockResponse.Builder().body("OK|" + TOKEN).headersDelay(5, TimeUnit.SECONDS).build());
    server.enqueue(json(0, "ERROR_BAD_PROXY"));
    for (int i = 0; i < 7; i++) {
      printable.add(failure(() -> client.get("4242")));
    }
    printable.add(failure(() -> client.submit(task)));
    printable.add(client);

    List<String> everything = new ArrayList<>();
    for (ILoggingEvent event : appender.list) {
      everything.add(event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        everything.add(t.getMessage());
      }
    }
    for (Object item : printable) {
      everything.add(item instanceof Throwable t ? stackTrace(t) : String.valueOf(item));
    }

    assertThat(String.join("\n", everything))
        .doesNotContain(KEY)
        .doesNotContain(TOKEN)
        .doesNotContain(PROXY_PASSWORD);
    assertThat(printable).hasAtLeastOneElementOfType(CaptchaAiTransportException.class);
    assertThat(appender.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .anyMatch(line -> line.startsWith("POST /in.php [key=***, json=1, method=turnstile"))
        .anyMatch(line -> line.contains("proxy=bob:***@10.0.0.1:3128"))
        .anyMatch(
            line ->
                line.matches(
                    "POST /res\\.php \\[key=\\*\\*\\*, json=1, action=get, id=4242] -> 200 in \\d+"
                        + " ms"))
        .anyMatch(line -> line.matches("POST /res\\.php .* -> 502 in \\d+ ms"))
        .anyMatch(line -> line.contains("-> SocketTimeoutException in"));
  }

  private static Throwable failure(Runnable call) {
    try {
      call.run();
    } catch (CaptchaAiException e) {
      return e;
    }
    throw new AssertionError("expected a CaptchaAiException");
  }

  private static String stackTrace(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return t + "\n" + out;
  }
}
