package com.captchajobs.console.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.testing.CapturedOutput;
import com.captchajobs.core.testing.OutputCapture;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jobrunr.jobs.mappers.JobMapper;
import org.jobrunr.storage.InMemoryStorageProvider;
import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The dashboard's own server on real sockets, with tight limits so that each test is quick. */
@Tag("unit")
@ExtendWith(OutputCapture.class)
class DashboardServerTest {

  private static final String USER = "ops";
  private static final String PASSWORD = "dashboard-password-for-tests";
  private static final DashboardLimits TIGHT =
      new DashboardLimits(2, 2, 1024, Duration.ofSeconds(1), Duration.ofSeconds(1), 3);

  private final List<DashboardServer> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(DashboardServer::close);
  }

  private DashboardServer start(DashboardLimits limits) {
    JsonMapper json = new JacksonJsonMapper();
    InMemoryStorageProvider storage = new InMemoryStorageProvider();
    storage.setJobMapper(new JobMapper(json));
    DashboardServer server =
        DashboardServer.start(storage, json, null, 0, USER, PASSWORD, limits, List.of());
    started.add(server);
    return server;
  }

  private static String get(DashboardServer server, String password) throws IOException {
    return RawHttp.request(
        server.address(),
        "GET /api/jobs?state=FAILED HTTP/1.1\r\nHost: localhost\r\nAuthorization: "
            + RawHttp.basic(USER, password),
        "");
  }

  @Test
  void itBindsLoopbackWhenNoAddressIsGiven() {
    assertThat(start(TIGHT).address().getAddress().isLoopbackAddress()).isTrue();
  }

  @Test
  void aCrossSitePostIsRefusedWithoutReadingItsBodyAndLoggedWithoutTheCallersText(
      CapturedOutput output) throws Exception {
    DashboardServer server = start(TIGHT);

    String status =
        RawHttp.request(
            server.address(),
            "FORGEDMETHOD /api/jobs/x/requeue-FORGEDPATH HTTP/1.1\r\nHost: localhost\r\n"
                + "Origin: http://evil.example",
            "x".repeat(100));

    assertThat(status).startsWith("HTTP/1.1 403");
    assertThat(server.refused(Refusals.Reason.CROSS_SITE)).isEqualTo(1);
    assertThat(output.getAll()).doesNotContain("FORGEDMETHOD").doesNotContain("FORGEDPATH");
  }

  @Test
  void aBodyOverTheCapIsAnswered413AndOneWithinItReachesAuthentication() throws Exception {
    DashboardServer server = start(TIGHT);

    String over =
        RawHttp.request(
            server.address(), "POST /api/jobs HTTP/1.1\r\nHost: localhost", "x".repeat(1025));
    String within =
        RawHttp.request(
            server.address(), "POST /api/jobs HTTP/1.1\r\nHost: localhost", "x".repeat(1024));

    assertThat(over).startsWith("HTTP/1.1 413");
    assertThat(within).startsWith("HTTP/1.1 401");
    assertThat(server.refused(Refusals.Reason.BODY_TOO_LARGE)).isEqualTo(1);
  }

  @Test
  void aConnectionThatNeverFinishesItsHeadersIsClosedAtTheDeadline() throws Exception {
    DashboardServer server = start(TIGHT);
    try (Socket slow = new Socket()) {
      slow.connect(server.address(), 5_000);
      slow.getOutputStream()
          .write("GET /api/jobs HTTP/1.1\r\nHost: loc".getBytes(StandardCharsets.UTF_8));
      slow.setSoTimeout(30_000);

      assertThat(slow.getInputStream().read()).isEqualTo(-1);
    }
    // the server counts the refusal after it closed the connection the client saw end
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> assertThat(server.refused(Refusals.Reason.DEADLINE)).isGreaterThanOrEqualTo(1));
  }

  @Test
  void aBodyThatNeverArrivesIsCutAtTheDeadline() throws Exception {
    DashboardServer server = start(TIGHT);
    try (Socket slow = new Socket()) {
      slow.connect(server.address(), 5_000);
      slow.getOutputStream()
          .write(
              "POST /api/jobs HTTP/1.1\r\nHost: localhost\r\nContent-Length: 500\r\n\r\nxx"
                  .getBytes(StandardCharsets.UTF_8));
      slow.setSoTimeout(30_000);

      assertThat(drain(slow.getInputStream())).doesNotContain("200 OK");
    }
    // the server counts the refusal after it closed the connection the client saw end
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> assertThat(server.refused(Refusals.Reason.DEADLINE)).isGreaterThanOrEqualTo(1));
  }

  @Test
  void stalledConnectionsBeyondThreadsAndQueueAreRefusedAndTheDashboardServesAgainAfterwards()
      throws Exception {
    DashboardServer server = start(TIGHT);
    List<Socket> stalled = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        Socket s = new Socket();
        s.connect(server.address(), 5_000);
        s.getOutputStream().write("GET /".getBytes(StandardCharsets.UTF_8));
        stalled.add(s);
      }

      await().atMost(Duration.ofSeconds(30)).until(() -> server.refused(Refusals.Reason.BUSY) >= 1);
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(get(server, PASSWORD)).startsWith("HTTP/1.1 200"));
    } finally {
      for (Socket s : stalled) {
        s.close();
      }
    }
  }

  @Test
  void failedLoginsFromOneAddressAreThrottledWith429EvenForTheRightPassword() throws Exception {
    DashboardServer server = start(TIGHT);
    assertThat(get(server, PASSWORD)).startsWith("HTTP/1.1 200");

    for (int i = 0; i < 3; i++) {
      assertThat(get(server, "wrong-password-" + i)).startsWith("HTTP/1.1 401");
    }

    assertThat(get(server, PASSWORD)).startsWith("HTTP/1.1 429");
    assertThat(server.refused(Refusals.Reason.LOGIN_THROTTLED)).isEqualTo(1);
  }

  @Test
  void theDefaultsAreTheOnesDocumented() {
    assertThat(DashboardLimits.DEFAULT)
        .isEqualTo(
            new DashboardLimits(
                8, 32, 16 * 1024, Duration.ofSeconds(10), Duration.ofSeconds(10), 10));
  }

  private static String drain(InputStream in) {
    StringBuilder seen = new StringBuilder();
    try {
      int c;
      while ((c = in.read()) >= 0) {
        seen.append((char) c);
      }
    } catch (IOException e) {
      // reset: closed at the deadline
    }
    return seen.toString();
  }
}
