package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A configured app node with an in-process worker, logging at DEBUG as an operator chasing a
 * problem might: a solve with a proxy password and cookies that ends SOLVED, is delivered to a
 * webhook and claimed; one whose proxy the provider rejects; an operator and a wrong token. None of
 * the secrets involved may appear in the log. Only the full sandbox prints credentials, and only
 * those it generated.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretsStayOutOfTheLogTest {

  static final String KEY = "logLeakKeyLOGleakKey012345678901";
  static final String PROXY_PASSWORD = "Pr0xyPassw0rdInTheLog";
  static final String COOKIE = "c00kieValueInTheLog";
  static final String SITEKEY = "0x4AAAAAAADnPIDROrmt1Wwj";

  @Test
  void aConfiguredNodeLogsNeitherTheKeyNorProxyPasswordsCookiesTokensOrSecrets(
      CapturedOutput output) throws Exception {
    List<String> delivered = new CopyOnWriteArrayList<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          delivered.add(exchange.getRequestURI().getPath());
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
    String claimed;
    String solvedId;
    String failedId;
    try (CaptchaAiSimulator sim =
        CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start()) {
      ConfigurableApplicationContext app =
          TestApps.appWithWorker(
              EmbeddedPostgresSupport.newDatabase(),
              sim.baseUrl(),
              KEY,
              Map.of(
                  "logging.level.com.captchajobs", "DEBUG",
                  "logging.level.org.springframework.security", "DEBUG",
                  "logging.level.org.jobrunr", "DEBUG",
                  "captchajobs.webhook.allowed-hosts",
                      "http://127.0.0.1:" + receiver.getAddress().getPort()));
      try {
        Api api = new Api(TestApps.port(app), TestApps.API_TOKEN);
        String callback = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
        solvedId =
            Api.json(
                    api.post(
                        "/api/solves",
                        withSecrets("log-solved", "user:" + PROXY_PASSWORD + "@203.0.113.7:8080")
                            .replace("}", ",\"callbackUrl\":\"" + callback + "\"}")))
                .get("id")
                .stringValue();
        failedId =
            Api.json(
                    api.post(
                        "/api/solves",
                        withSecrets("log-failed", "user:" + PROXY_PASSWORD + "@bad.proxy:8080")))
                .get("id")
                .stringValue();
        awaitStatus(api, solvedId, "SOLVED");
        awaitStatus(api, failedId, "FAILED");
        await().atMost(Duration.ofSeconds(40)).until(() -> !delivered.isEmpty());
        claimed = Api.json(api.claim(solvedId)).get("token").stringValue();
        // the failed solve is scrubbed too, and its failure stored nowhere with the proxy
        assertThat(everyRow(new JdbcTemplate(app.getBean(DataSource.class))))
            .isNotEmpty()
            .noneMatch(row -> row.contains(PROXY_PASSWORD) || row.contains(COOKIE));

        Api management = new Api(TestApps.managementPort(app), TestApps.OPERATOR_TOKEN);
        assertThat(
                management
                    .send(management.request("/actuator/health", management.auth()).GET().build())
                    .statusCode())
            .isEqualTo(200);
        assertThat(
                new Api(TestApps.port(app), "wrong-token-0123456789abcdef")
                    .get("/api/solves/" + solvedId)
                    .statusCode())
            .isEqualTo(401);
      } finally {
        app.close();
      }
    } finally {
      receiver.stop(0);
    }

    String log = output.getAll();
    // the log did capture this node's work on both solves
    assertThat(log).contains(solvedId, failedId, "delivered");
    assertThat(claimed).isNotBlank();
    for (String secret :
        List.of(
            KEY,
            PROXY_PASSWORD,
            COOKIE,
            claimed,
            TestApps.API_TOKEN,
            TestApps.OPERATOR_TOKEN,
            TestApps.WEBHOOK_SECRET)) {
      assertThat(log).as("the log holds a secret").doesNotContain(secret);
    }
  }

  /** Every column of every row of every table, as text: the data a dump would hold. */
  private static List<String> everyRow(JdbcTemplate jdbc) {
    List<String> rows = new ArrayList<>();
    for (String table :
        jdbc.queryForList(
            "SELECT table_schema || '.' || table_name FROM information_schema.tables"
                + " WHERE table_type = 'BASE TABLE'"
                + " AND table_schema NOT IN ('pg_catalog', 'information_schema')",
            String.class)) {
      rows.addAll(jdbc.queryForList("SELECT t::text FROM " + table + " t", String.class));
    }
    return rows;
  }

  private static String withSecrets(String businessKey, String proxy) {
    return "{\"businessKey\":\""
        + businessKey
        + "\",\"type\":\"TURNSTILE\",\"sitekey\":\""
        + SITEKEY
        + "\",\"pageUrl\":\"https://shop.example.test/"
        + businessKey
        + "\",\"proxy\":\""
        + proxy
        + "\",\"proxyType\":\"HTTP\",\"cookies\":\"sid="
        + COOKIE
        + "\"}";
  }

  private static void awaitStatus(Api api, String id, String status) {
    await()
        .atMost(Duration.ofSeconds(40))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                Api.json(api.get("/api/solves/" + id)).get("status").stringValue().equals(status));
  }
}
