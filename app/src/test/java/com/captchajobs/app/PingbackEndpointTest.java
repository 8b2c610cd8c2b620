package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.SolveRequest;
import com.captchajobs.core.Solves;
import com.captchajobs.core.internal.provider.PingbackUrls;
import com.captchajobs.core.pingback.PingbackReceiver;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.TaskRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The app node's pingback endpoint on the API port: open to the provider without a bearer token,
 * counting only a push whose signed path matches a waiting submission (404 for anything else),
 * whatever form the push takes, and never logging what was pushed, even at DEBUG.
 */
@ExtendWith(OutputCaptureExtension.class)
class PingbackEndpointTest {

  static final String KEY = "pingbackAppKeyPINGBACKappKEY0123";
  static final String SECRET = "pingback-secret-of-the-app-test-0123456789";
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static CaptchaAiSimulator sim;
  static ConfigurableApplicationContext app;
  static JdbcTemplate jdbc;
  static int port;

  @BeforeAll
  static void start() throws IOException {
    sim =
        CaptchaAiSimulator.builder()
            .account(KEY, 5)
            .solveTime("turnstile", Duration.ofSeconds(1), Duration.ofSeconds(2))
            .solveTime("userrecaptcha", Duration.ofSeconds(60), Duration.ofSeconds(70))
            .pingbackMethod("POST")
            .build()
            .start();
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    app =
        TestApps.appWithWorker(
            EmbeddedPostgresSupport.newDatabase(),
            sim.baseUrl(),
            KEY,
            Map.of(
                "server.port",
                String.valueOf(port),
                "captchaai.first-poll-wait.TURNSTILE",
                "5s",
                "captchaai.pingback-url",
                "http://127.0.0.1:" + port + "/captchaai/pingback",
                "captchaai.pingback-secret",
                SECRET));
    jdbc = new JdbcTemplate(app.getBean(DataSource.class));
  }

  @AfterAll
  static void stop() {
    app.close();
    sim.close();
  }

  @Test
  void anAnswerPushedToTheApiPortWithoutABearerTokenIsFetchedAtOnceAndStored() {
    String pageUrl = "https://shop.example.test/app-push";
    UUID id =
        app.getBean(Solves.class)
            .enqueue(SolveRequest.turnstile("app-push", "0x4AAAAAAADnPIDROrmt1Wwj", pageUrl));

    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> "SOLVED".equals(status(id)));

    TaskRecord task =
        sim.tasks().stream().filter(t -> pageUrl.equals(t.pageUrl())).findFirst().orElseThrow();
    assertThat(task.polls()).as("res.php calls: the fetch the push rang for").isEqualTo(1);
    // the simulator records a push once the receiver answered it
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertThat(sim.pushes())
                    .anySatisfy(
                        p -> {
                          assertThat(p.taskId()).isEqualTo(task.id());
                          assertThat(p.status()).isEqualTo(200);
                        }));
  }

  @Test
  void aForgedOrMalformedPushIsAnswered404AndTheRestOfTheApiStillNeedsAToken() throws Exception {
    String forged =
        "/captchaai/pingback/"
            + UUID.randomUUID()
            + "/1/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    assertThat(get(forged + "?id=73000000000001&code=forged")).isEqualTo(404);
    assertThat(get("/captchaai/pingback/not-a-solve?id=1&code=x")).isEqualTo(404);
    assertThat(get("/captchaai/pingback/")).isEqualTo(404);
    assertThat(get("/api/solves/" + UUID.randomUUID())).isEqualTo(401);
    assertThat(jdbc.queryForObject("SELECT count(*) FROM captchajobs.solve", Long.class))
        .isLessThanOrEqualTo(1L); // only the other test's solve, if it ran first
  }

  @Test
  void aPushRingsByGetByPostFormAndByPostJsonAndNoPushedAnswerReachesTheLogAtDebug(
      CapturedOutput output) throws Exception {
    LoggingSystem logging = app.getBean(LoggingSystem.class);
    List<String> loud =
        List.of("org.apache", "org.springframework.web", "org.springframework.security");
    loud.forEach(name -> logging.setLogLevel(name, LogLevel.DEBUG));
    try {
      UUID id =
          app.getBean(Solves.class)
              .enqueue(
                  SolveRequest.recaptchaV2(
                      "app-push-forms",
                      "6LcR_okUAAAAAPYrPe-HK_0RULO1aZM15ENyM-Mf",
                      "https://shop.example.test/app-push-forms"));
      await().atMost(Duration.ofSeconds(30)).until(() -> "SUBMITTED".equals(status(id)));
      String url =
          new PingbackUrls("http://127.0.0.1:" + port + PingbackReceiver.PATH, SECRET)
              .urlFor(id, 1);
      String signature = url.substring(url.lastIndexOf('/') + 1);
      String taskId =
          jdbc.queryForObject(
              "SELECT task_id FROM captchajobs.solve WHERE id = ?", String.class, id);

      assertThat(send(url + "?id=" + taskId + "&code=PUSHED-ANSWER-GET", "GET", null, null))
          .isEqualTo(200);
      assertThat(
              send(
                  url,
                  "POST",
                  "application/x-www-form-urlencoded",
                  "id=" + taskId + "&code=PUSHED-ANSWER-FORM"))
          .isEqualTo(200);
      assertThat(
              send(
                  url,
                  "POST",
                  "application/json",
                  "{\"id\":\"" + taskId + "\",\"code\":\"PUSHED-ANSWER-JSON\"}"))
          .isEqualTo(200);
      assertThat(send(url, "POST", "application/x-www-form-urlencoded", "code=" + "x".repeat(5000)))
          .isEqualTo(413);
      assertThat(send(url, "POST", "multipart/form-data; boundary=b", "--b--")).isEqualTo(415);
      assertThat(send(url, "PUT", "text/plain", "code=PUSHED-ANSWER-PUT")).isEqualTo(405);

      // the fetch a push rang for asked res.php once: the task is not ready, nothing is stored
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  sim.tasks().stream()
                      .anyMatch(
                          t ->
                              "https://shop.example.test/app-push-forms".equals(t.pageUrl())
                                  && t.polls() == 1));
      assertThat(status(id)).isEqualTo("SUBMITTED");
      assertThat(output.getAll())
          .contains("DEBUG") // the loud loggers did log
          .doesNotContain("PUSHED-ANSWER")
          .doesNotContain(signature);
    } finally {
      loud.forEach(name -> logging.setLogLevel(name, null));
    }
  }

  @Test
  void aPushedCodeTomcatRefusesToParseReachesNoLogAtInfo(CapturedOutput output) throws Exception {
    // INFO as an app node logs by default (the tests' logback-test.xml says WARN)
    LoggingSystem logging = app.getBean(LoggingSystem.class);
    logging.setLogLevel("org.apache", LogLevel.INFO);
    try {
      String url =
          new PingbackUrls("http://127.0.0.1:" + port + PingbackReceiver.PATH, SECRET)
              .urlFor(UUID.randomUUID(), 1);
      String path = url.substring(url.indexOf(PingbackReceiver.PATH));

      // characters Tomcat refuses in a request target: it answers 400 and logs the target at INFO
      assertThat(rawGet(path + "?id=1&code={UNPARSEABLE-PUSH}|x")).startsWith("HTTP/1.1 400");
      // a parameter that fails to decode: Tomcat logs its value at INFO when it parses the query
      rawGet(path + "?id=1&code=UNDECODABLE-PUSH%zz");
      rawGet(path + "?id=1&code=UNDECODABLE-PUSH%zz");

      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> output.getAll().contains("withheld: it may quote a pushed answer"));
      assertThat(output.getAll())
          .contains("Http11Processor") // Tomcat did log, and the guard put a fixed line instead
          .doesNotContain("UNPARSEABLE-PUSH")
          .doesNotContain("UNDECODABLE-PUSH")
          .doesNotContain(url.substring(url.lastIndexOf('/') + 1));
    } finally {
      logging.setLogLevel("org.apache", null);
    }
  }

  /** A GET with the target exactly as given (no client encodes it), answered with the status. */
  private static String rawGet(String target) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET "
                  + target
                  + " HTTP/1.1\r\nHost: 127.0.0.1:"
                  + port
                  + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      StringBuilder line = new StringBuilder();
      InputStream in = socket.getInputStream();
      int c;
      while ((c = in.read()) >= 0 && c != '\n') {
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return line.toString();
    }
  }

  @Test
  void largeFormsAndMultipartOnThePingbackPathAndBodiesBeforeAuthenticationAreRefusedUnreadInTime()
      throws Exception {
    String path = "/captchaai/pingback/" + UUID.randomUUID() + "/1/forged";
    List<String> answers = new ArrayList<>();
    for (String[] attack :
        new String[][] {
          {path, "application/x-www-form-urlencoded", String.valueOf(2 * 1024 * 1024)},
          {path, "multipart/form-data; boundary=b", String.valueOf(10 * 1024 * 1024)},
          {path, "application/json", String.valueOf(64 * 1024)},
          {"/api/solves", "application/json", String.valueOf(10 * 1024 * 1024)},
          {"/api/solves", "multipart/form-data; boundary=b", String.valueOf(10 * 1024 * 1024)}
        }) {
      long start = System.nanoTime();
      Refusal refusal = stalledBody(attack[0], attack[1], Long.parseLong(attack[2]));
      long millis = (System.nanoTime() - start) / 1_000_000;
      answers.add(
          (attack[0].startsWith("/api") ? "api" : "pingback")
              + " "
              + attack[1]
              + " "
              + attack[2]
              + " B: "
              + refusal.status()
              + " in "
              + millis
              + " ms, body bytes sent before the answer "
              + refusal.sent());
      assertThat(refusal.status()).as(attack[1]).startsWith("HTTP/1.1 4");
      assertThat(millis).as("answered without waiting for the body").isLessThan(5_000);
    }
    System.out.println("[unauthenticated bodies] " + String.join("; ", answers));
    assertThat(uploadsUnder(Path.of(System.getProperty("java.io.tmpdir"))))
        .as("no multipart part was written to disk")
        .isEmpty();
  }

  record Refusal(String status, long sent) {}

  /**
   * Declares a body of {@code length} bytes and sends only its first 8 KiB, then waits for the
   * answer: a server that read the body before answering would wait for the rest.
   */
  private static Refusal stalledBody(String path, String type, long length) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST "
                  + path
                  + " HTTP/1.1\r\nHost: 127.0.0.1:"
                  + port
                  + "\r\nContent-Type: "
                  + type
                  + "\r\nContent-Length: "
                  + length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      byte[] part = new byte[8 * 1024];
      java.util.Arrays.fill(part, (byte) 'a');
      out.write(part);
      out.flush();
      StringBuilder line = new StringBuilder();
      InputStream in = socket.getInputStream();
      int c;
      while ((c = in.read()) >= 0 && c != '\n') {
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return new Refusal(line.toString(), part.length);
    }
  }

  /** Multipart parts Tomcat would have written under its base directories in the temp dir. */
  private static List<Path> uploadsUnder(Path tmp) throws IOException {
    List<Path> uploads = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(tmp)) {
      for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith("tomcat")).toList()) {
        try (Stream<Path> files =
            Files.find(dir, 8, (f, a) -> f.getFileName().toString().startsWith("upload_"))) {
          uploads.addAll(files.toList());
        } catch (IOException | UncheckedIOException e) {
          // another process's directory, or gone while walking
        }
      }
    }
    return uploads;
  }

  private static int send(String url, String method, String type, String body) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
    if (type != null) {
      request.header("Content-Type", type);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private static String status(UUID id) {
    return jdbc.queryForObject(
        "SELECT status FROM captchajobs.solve WHERE id = ?", String.class, id);
  }

  private static int get(String path) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
