package com.captchajobs.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.testing.CapturedOutput;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.OutputCapture;
import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The console's providers on a node's own dashboard port (the console as the core serves it), over
 * a real PostgreSQL: the providers' rows on the overview, and the daily budget an operator sets,
 * refused without the credentials, from another site and for a value that is no budget, and seen by
 * {@code Operations.providers()} once set. The providers' rows are written as a worker registers
 * them at start (this node runs none).
 */
@ExtendWith(OutputCapture.class)
class ProviderBudgetOnANodeTest {

  static final String USER = "ops";
  static final String PASSWORD = "provider-budget-password-0123";
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static HikariDataSource db;
  static CaptchaJobs node;
  static String base;

  @BeforeAll
  static void start() throws Exception {
    db = new HikariDataSource();
    db.setJdbcUrl(EmbeddedPostgresSupport.newDatabase());
    db.setMaximumPoolSize(4);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    node =
        CaptchaJobs.builder()
            .dataSource(db)
            .nodeName("console-providers")
            .dashboard(port, USER, PASSWORD)
            .dashboardAddress("127.0.0.1")
            .build();
    base = "http://127.0.0.1:" + port;
    try (Connection c = db.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO captchajobs.gate_provider (name, role, capacity, key_fingerprint, prices,"
              + " daily_budget) VALUES"
              + " ('captchaai', 'PRIMARY', 5, 'fp-primary', '{}', NULL),"
              + " ('backup2c', 'BACKUP', 4, 'fp-backup', '{\"TURNSTILE\": 0.002}', 10)");
      s.execute(
          "INSERT INTO captchajobs.provider_spend (provider, day, type, solves, amount)"
              + " VALUES ('backup2c', (now() AT TIME ZONE 'UTC')::date, 'TURNSTILE', 3, 0.006)");
      // one of the backup's slots held by a solve, as a worker's gate takes it
      s.execute(
          "INSERT INTO captchajobs.gate_slot (provider, slot_no, solve_id, node, acquired_at,"
              + " lease_until) VALUES ('backup2c', 0, gen_random_uuid(), 'w1', now(),"
              + " now() + interval '1 hour')");
    }
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
    db.close();
  }

  @Test
  void theOverviewShowsEachProvidersRowThePrimaryFirst() throws Exception {
    HttpResponse<String> page = send("GET", "/console/", null, true, null);

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body())
        .contains(
            "<th scope=\"row\">captchaai</th><td>primary</td><td class=\"num\">5</td>"
                + "<td class=\"num\">0</td>")
        .contains(
            "<th scope=\"row\">backup2c</th><td>backup</td><td class=\"num\">4</td>"
                + "<td class=\"num\">1</td>")
        .contains("<td class=\"num\">0.006</td>");
    assertThat(page.body().indexOf("data-provider=\"captchaai\""))
        .isPositive()
        .isLessThan(page.body().indexOf("data-provider=\"backup2c\""));
    assertThat(send("GET", "/console/api/overview", null, true, null).body())
        .contains("\"providersHtml\":", "data-provider=\\\"backup2c\\\"");
  }

  @Test
  void theFleetTilesCountThePrimarysSlotsOnlyAsTheEnginesGateFiguresDo() throws Exception {
    String json = send("GET", "/console/api/overview", null, true, null).body();

    assertThat(json).as("the backup's slot is on its own row").contains("\"inFlight\":0,");
  }

  @Test
  void aBudgetIsSetOnlyWithTheCredentialsFromTheConsolesOwnOrigin() throws Exception {
    BigDecimal before = budgetOf("backup2c");

    assertThat(send("POST", "/console/providers/budget", base, false, form("backup2c", "999")))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(401);
    assertThat(
            send(
                    "POST",
                    "/console/providers/budget",
                    "http://evil.example",
                    true,
                    form("backup2c", "999"))
                .statusCode())
        .isEqualTo(403);
    assertThat(
            send(
                    "GET",
                    "/console/providers/budget?provider=backup2c&dailyBudget=999",
                    null,
                    true,
                    null)
                .statusCode())
        .as("no GET sets anything")
        .isEqualTo(404);
    assertThat(budgetOf("backup2c")).isEqualByComparingTo(before);

    assertThat(send("POST", "/console/providers/budget", base, true, form("backup2c", "999")))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(200);
    assertThat(budgetOf("backup2c")).isEqualByComparingTo("999");
  }

  @Test
  void aValueThatIsNoBudgetIsAnswered400NamingTheFieldAndChangesNothing() throws Exception {
    BigDecimal before = budgetOf("backup2c");
    for (String bad : new String[] {"-1", "abc", "1e3", "", "12,50", "NaN", "1".repeat(13)}) {
      HttpResponse<String> answer =
          send("POST", "/console/providers/budget", base, true, form("backup2c", bad));
      assertThat(answer.statusCode()).as(bad).isEqualTo(400);
      assertThat(answer.body()).as(bad).contains("dailyBudget must be a decimal of zero or more");
    }
    HttpResponse<String> noName =
        send("POST", "/console/providers/budget", base, true, "dailyBudget=5");
    assertThat(noName.statusCode()).isEqualTo(400);
    assertThat(noName.body()).contains("provider is required");
    assertThat(budgetOf("backup2c")).isEqualByComparingTo(before);
  }

  @Test
  void aBudgetSetFromTheConsoleIsWhatOperationsReportsAndIsLoggedWithoutSecrets(
      CapturedOutput output) throws Exception {
    HttpResponse<String> set =
        send("POST", "/console/providers/budget", base, true, form("backup2c", "55.5"));

    assertThat(set.statusCode()).isEqualTo(200);
    assertThat(set.body()).contains("The daily budget of backup2c is now 55.50");
    assertThat(budgetOf("backup2c")).isEqualByComparingTo("55.5");
    assertThat(output.getAll())
        .contains("Console: daily budget of provider backup2c set to 55.50 (was ")
        .contains(" by ops")
        .doesNotContain(PASSWORD);

    assertThat(send("POST", "/console/providers/budget", base, true, form("backup2c", "0")))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(200);
    assertThat(budgetOf("backup2c")).as("0: no cap").isNull();
  }

  @Test
  void thePrimaryHasNoBudgetAndAnUnknownProviderIsNotFound() throws Exception {
    HttpResponse<String> primary =
        send("POST", "/console/providers/budget", base, true, form("captchaai", "5"));
    HttpResponse<String> unknown =
        send("POST", "/console/providers/budget", base, true, form("nobody", "5"));

    assertThat(primary.statusCode()).isEqualTo(409);
    assertThat(primary.body()).contains("billed by threads");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(budgetOf("captchaai")).isNull();
  }

  /** The budget {@code Operations.providers()} reports for a provider. */
  static BigDecimal budgetOf(String name) {
    return node.operations().providers().stream()
        .filter(r -> r.name().equals(name))
        .findFirst()
        .orElseThrow()
        .dailyBudget();
  }

  static String form(String provider, String budget) {
    return "provider="
        + URLEncoder.encode(provider, StandardCharsets.UTF_8)
        + "&dailyBudget="
        + URLEncoder.encode(budget, StandardCharsets.UTF_8);
  }

  static HttpResponse<String> send(
      String method, String path, String origin, boolean authenticated, String form)
      throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create(base + path))
            .method(
                method,
                form == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(form));
    if (form != null) {
      r.header("Content-Type", "application/x-www-form-urlencoded");
    }
    if (origin != null) {
      r.header("Origin", origin);
    }
    if (authenticated) {
      r.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
    }
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }
}
