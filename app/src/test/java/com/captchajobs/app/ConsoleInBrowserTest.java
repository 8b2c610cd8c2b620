package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.Solves;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.simulator.RequestRecord;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The operator console in a real browser (headless Chromium and chromedriver from Debian, which
 * {@code .ci/run} installs) against a running node with a worker, the simulator and PostgreSQL:
 * each page's content, Requeue and Close breaker reaching the simulator as new in.php calls, a
 * cross-site request refused, and no secret in any page. Saves a screenshot of each page under
 * {@code app/target/console-screenshots/}, or, to refresh the documentation's, under the directory
 * named by {@code -Dcaptchajobs.screenshots=../docs/console} (a test run leaves the tree as it
 * was).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleInBrowserTest {

  static final String KEY = "consoleKeyCONSOLEkey0123456789ab";
  static final String USER = "ops";
  static final String PASSWORD = "console-password-0123456789";
  static final Path SCREENSHOTS =
      Path.of(System.getProperty("captchajobs.screenshots", "target/console-screenshots"));
  static final Duration WAIT = Duration.ofSeconds(60);
  static final String BAD_SITEKEY = "ERROR_BAD_TOKEN_OR_PAGEURL";

  static CaptchaAiSimulator sim;
  static HttpServer receiver;
  static final java.util.concurrent.atomic.AtomicInteger webhooks =
      new java.util.concurrent.atomic.AtomicInteger();
  static ConfigurableApplicationContext app;
  static WebDriver browser;
  static String jdbcUrl;
  static String console;
  static Solves solves;
  static final List<String> pages = new ArrayList<>();
  static UUID dead;
  static UUID proxied;
  static final String PROXY_PASSWORD = "proxyPassword0123";
  static UUID breakerSolve;

  @BeforeAll
  static void start() throws Exception {
    boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
    boolean installed =
        new File("/usr/bin/chromium").canExecute()
            && new File("/usr/bin/chromedriver").canExecute();
    assumeTrue(
        installed || ci,
        "Debian's chromium and chromium-driver are not installed (.ci/run installs them)");
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        "/",
        ex -> {
          ex.getRequestBody().readAllBytes();
          webhooks.incrementAndGet();
          ex.sendResponseHeaders(204, -1);
          ex.close();
        });
    receiver.start();
    String receiverUrl = "http://127.0.0.1:" + receiver.getAddress().getPort();
    jdbcUrl = EmbeddedPostgresSupport.newDatabase();
    int dashboardPort = freePort();
    app =
        TestApps.appWithWorker(
            jdbcUrl,
            sim.baseUrl(),
            KEY,
            Map.of(
                "captchajobs.dashboard.enabled",
                "true",
                "captchajobs.dashboard.port",
                String.valueOf(dashboardPort),
                "captchajobs.dashboard.address",
                "127.0.0.1",
                "captchajobs.dashboard.username",
                USER,
                "captchajobs.dashboard.password",
                PASSWORD,
                "captchajobs.webhook.allowed-hosts",
                receiverUrl));
    console = "http://localhost:" + dashboardPort + "/console/";
    solves = app.getBean(CaptchaJobs.class).solves();
    Api client = new Api(TestApps.port(app), TestApps.API_TOKEN);
    List<UUID> ok = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      String json = batch("console-ok-" + i);
      if (i == 1) {
        json =
            json.substring(0, json.length() - 1) + ",\"callbackUrl\":\"" + receiverUrl + "/hook\"}";
      }
      ok.add(OperatorViewsTest.id(client.post("/api/solves", json)));
    }
    // sitekey "invalid": the simulator's in.php refuses it (ERROR_BAD_TOKEN_OR_PAGEURL, permanent)
    dead =
        OperatorViewsTest.id(
            client.post(
                "/api/solves",
                OperatorViewsTest.withBatch(
                    "{\"businessKey\":\"console-dead\",\"type\":\"TURNSTILE\","
                        + "\"sitekey\":\"invalid\",\"pageUrl\":\"https://shop.example.test/broken\"}",
                    "night-1")));
    // a dead proxy: FAILED, and its proxy scrubbed, so it cannot be rebuilt
    proxied =
        OperatorViewsTest.id(
            client.post(
                "/api/solves",
                "{\"businessKey\":\"console-proxied\",\"type\":\"TURNSTILE\",\"sitekey\":\""
                    + RestFlowTest.SITEKEY
                    + "\",\"pageUrl\":\"https://shop.example.test/proxied\","
                    + "\"proxy\":\"user:"
                    + PROXY_PASSWORD
                    + "@dead.proxy:3128\",\"proxyType\":\"HTTP\"}"));
    await()
        .atMost(WAIT)
        .until(
            () ->
                ok.stream().allMatch(id -> solves.status(id).status() == SolveStatus.SOLVED)
                    && solves.status(dead).status() == SolveStatus.FAILED
                    && solves.status(proxied).status() == SolveStatus.FAILED);
    await().atMost(WAIT).until(() -> webhooks.get() > 0);
    solves.claim(ok.get(0));
    seedOldSolvesForPaging();
    seedBackupProvider();
    browser = chromium();
  }

  static String batch(String key) {
    return OperatorViewsTest.withBatch(RestFlowTest.turnstile(key), "night-1");
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (app != null) {
      app.close();
    }
    if (sim != null) {
      sim.close();
    }
    if (receiver != null) {
      receiver.stop(0);
    }
  }

  @Test
  @Order(1)
  void theOverviewShowsTheFleetAndRefreshesItselfEveryTwoSecondsWithoutReloading()
      throws Exception {
    browser.get(console.replace("http://", "http://" + USER + ":" + PASSWORD + "@"));
    assertThat(browser.getTitle()).isEqualTo("Overview · CaptchaJobs console");
    assertThat(text("capacity")).isEqualTo("5");
    JavascriptExecutor js = (JavascriptExecutor) browser;
    js.executeScript("window.__stillThisPage = true;");
    String first = awaitRefreshedAfter("");
    awaitRefreshedAfter(first);
    assertThat(js.executeScript("return window.__stillThisPage === true;"))
        .as("refreshed by fetch, not by reloading the page")
        .isEqualTo(true);
    assertThat(browser.findElement(By.id("failures")).getText())
        .contains(BAD_SITEKEY, "ERROR_PROXY_CONNECTION_FAILED");
    assertThat(browser.findElement(By.id("reports")).getText()).contains("TURNSTILE");
    assertThat(text("p50")).endsWith(" s");
    assertThat(browser.findElements(By.cssSelector("#chart svg polyline"))).isNotEmpty();
    assertThat(browser.findElement(By.linkText("JobRunr dashboard")).getAttribute("href"))
        .endsWith("/dashboard");
    // the providers: the primary as its worker registered it, then the priced backup
    String providers = browser.findElement(By.id("providers")).getText();
    assertThat(providers)
        .contains("captchaai primary 5 ", "breaker closed", "threads threads")
        .contains("backup2c backup 4 0 breaker closed fp-backup 0.006 10.00");
    assertThat(providers.indexOf("captchaai")).isLessThan(providers.indexOf("backup2c"));
    // the workers read the provider's working threads while the overview is watched
    await().atMost(WAIT).until(() -> !text("working").equals("–"));
    keep("overview");
  }

  @Test
  @Order(2)
  void theSolvesTableFiltersByEveryFieldAndPagesByKeysetToEachSolvesTimeline() throws Exception {
    browser.get(console + "solves");
    browser.findElement(By.id("f-key")).sendKeys("console-");
    browser.findElement(By.xpath("//select[@id='f-status']/option[text()='FAILED']")).click();
    browser.findElement(By.id("f-batch")).sendKeys("night-1");
    browser.findElement(By.xpath("//select[@id='f-type']/option[text()='TURNSTILE']")).click();
    browser.findElement(By.id("f-code")).sendKeys(BAD_SITEKEY);
    browser.findElement(By.id("f-client")).sendKeys("default");
    clickToNextPage(By.cssSelector("form.filters button[type=submit]"));
    List<WebElement> rows = browser.findElements(By.cssSelector("#solves tbody tr"));
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).getText()).contains("console-dead", "FAILED", BAD_SITEKEY);

    browser.get(console + "solves?batch=paging");
    assertThat(browser.findElements(By.cssSelector("#solves tbody tr"))).hasSize(50);
    String newest = browser.findElement(By.cssSelector("#solves tbody tr td a")).getText();
    assertThat(newest).isEqualTo("page-060");
    keep("solves");
    clickToNextPage(By.linkText("Older solves"));
    List<WebElement> older = browser.findElements(By.cssSelector("#solves tbody tr"));
    assertThat(older).hasSize(10);
    assertThat(older.get(0).getText()).contains("page-010");
    assertThat(browser.getPageSource()).contains("No older solves.");

    browser.get(console + "solves?key=console-ok-1");
    assertThat(browser.findElement(By.cssSelector("#solves tbody tr")).getText())
        .as("the provider that accepted its task")
        .endsWith("CLAIMED night-1 captchaai");
    browser.findElement(By.linkText("console-ok-1")).click();
    String timeline = browser.findElement(By.cssSelector("ol.timeline")).getText();
    assertThat(timeline).contains("enqueued", "submit", "task ", "node ", "solved", "claimed");
    assertThat(timeline).contains("webhook", "SOLVED to 127.0.0.1: HTTP 204");
    assertThat(timeline).containsAnyOf("poll", "push");
    assertThat(browser.findElement(By.cssSelector("dl.fields")).getText())
        .contains("Provider\ncaptchaai");
    keep("solve");
  }

  @Test
  @Order(3)
  void requeueOnTheDeadSolvesPageSubmitsAfreshRequeueAllAsksFirstAndAScrubbedSolveIs409()
      throws Exception {
    long before = refusedInPhpCalls();
    browser.get(console + "dead");
    WebElement codes = browser.findElement(By.id("dead-codes"));
    assertThat(codes.getText()).contains(BAD_SITEKEY, "ERROR_PROXY_CONNECTION_FAILED");
    clickToNextPage(By.linkText(BAD_SITEKEY));
    keep("dead");
    browser.findElement(By.xpath("//table[@id='solves']//button[text()='Requeue']")).click();
    assertThat(browser.findElement(By.id("outcome")).getText())
        .contains("console-dead requeued", "fresh deadline");
    await().atMost(WAIT).until(() -> refusedInPhpCalls() > before);
    await().atMost(WAIT).until(() -> solves.status(dead).status() == SolveStatus.FAILED);

    long again = refusedInPhpCalls();
    browser.get(console + "dead");
    browser
        .findElement(By.xpath("//button[text()='Requeue all " + BAD_SITEKEY + "\u2026']"))
        .click();
    assertThat(browser.findElement(By.tagName("main")).getText())
        .contains("Requeue all 1 FAILED solves with code " + BAD_SITEKEY + "?");
    keep("dead-confirm");
    browser.findElement(By.xpath("//button[text()='Yes, requeue them']")).click();
    assertThat(browser.findElement(By.id("outcome")).getText())
        .contains("Requeued 1 solve(s) with code " + BAD_SITEKEY + "; 0 could not be rebuilt");
    await().atMost(WAIT).until(() -> refusedInPhpCalls() > again);

    browser.get(console + "solves/" + proxied);
    browser.findElement(By.xpath("//button[text()='Requeue']")).click();
    assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Not requeued");
    assertThat(browser.findElement(By.id("outcome")).getText())
        .contains("cannot be requeued", "proxy", "(409)")
        .doesNotContain(PROXY_PASSWORD);
    pages.add(browser.getPageSource());
    assertThat(solves.status(proxied).status()).isEqualTo(SolveStatus.FAILED);
    assertThat(requeuesOf(proxied)).isZero();
  }

  @Test
  @Order(4)
  void closeBreakerOnTheOverviewLetsSubmissionsReachTheProviderAgain() throws Exception {
    String fingerprint =
        app.getBean(CaptchaJobs.class).operations().worker().orElseThrow().keyFingerprint();
    sql(
        "INSERT INTO captchajobs.breaker (key_fingerprint, open, error_code, reason, opened_at)"
            + " VALUES ('"
            + fingerprint
            + "', true, 'ERROR_KEY_DOES_NOT_EXIST', 'opened by the test', now())"
            + " ON CONFLICT (key_fingerprint) DO UPDATE SET open = true");
    Api client = new Api(TestApps.port(app), TestApps.API_TOKEN);
    breakerSolve =
        OperatorViewsTest.id(client.post("/api/solves", RestFlowTest.turnstile("console-breaker")));
    await().atMost(WAIT).until(() -> solves.status(breakerSolve).status() == SolveStatus.FAILED);
    String page = SolveProbe.pageUrl("console-breaker");
    assertThat(inPhpCallsFor(page)).as("no in.php while the breaker is open").isZero();

    browser.get(console);
    await()
        .atMost(WAIT)
        .ignoreException(StaleElementReferenceException.class)
        .until(() -> browser.findElement(By.id("breakers")).getText().contains("OPEN"));
    keep("overview-breaker-open");
    // the overview's refresh replaces the breakers' rows every few seconds: find the button afresh
    // when the one found was replaced before the click reached it
    await()
        .atMost(WAIT)
        .ignoreException(StaleElementReferenceException.class)
        .until(
            () -> {
              browser.findElement(By.xpath("//button[text()='Close breaker']")).click();
              return true;
            });
    assertThat(browser.findElement(By.id("outcome")).getText())
        .contains("The breaker of key " + fingerprint + " is closed");

    browser.get(console + "solves/" + breakerSolve);
    assertThat(browser.findElement(By.cssSelector("ol.timeline")).getText())
        .contains("ERROR_KEY_DOES_NOT_EXIST");
    browser.findElement(By.xpath("//button[text()='Requeue']")).click();
    assertThat(browser.findElement(By.id("outcome")).getText()).contains("requeued");
    await().atMost(WAIT).until(() -> inPhpCallsFor(page) == 1);
    await().atMost(WAIT).until(() -> solves.status(breakerSolve).status() == SolveStatus.SOLVED);
  }

  @Test
  @Order(5)
  void aRequeueAPageOfAnotherSiteMakesTheBrowserSendIsRefused() throws Exception {
    await().atMost(WAIT).until(() -> solves.status(dead).status() == SolveStatus.FAILED);
    int requeues = requeuesOf(dead);
    HttpServer evil = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String form =
        "<!doctype html><html><body><form id=f method=post action=\""
            + console
            + "dead/requeue\"><input type=hidden name=id value=\""
            + dead
            + "\"></form><script>document.getElementById('f').submit()</script></body></html>";
    evil.createContext(
        "/",
        ex -> {
          byte[] body = form.getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    evil.start();
    try {
      browser.get("http://127.0.0.1:" + evil.getAddress().getPort() + "/");
      await()
          .atMost(WAIT)
          .until(() -> browser.getPageSource().contains("cross-site request refused"));
    } finally {
      evil.stop(0);
    }
    assertThat(requeuesOf(dead)).isEqualTo(requeues);
    assertThat(solves.status(dead).status()).isEqualTo(SolveStatus.FAILED);

    // the same POST from the console's own origin, with the credentials, is accepted
    HttpResponse<String> own =
        post(console + "breakers/close", "fingerprint=none", console.replace("/console/", ""));
    assertThat(own.statusCode()).isEqualTo(409);
    HttpResponse<String> anonymous =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(console + "solves")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);
    HttpResponse<String> huge =
        post(
            console + "dead/requeue", "id=" + "x".repeat(20_000), console.replace("/console/", ""));
    assertThat(huge.statusCode()).isEqualTo(413);
  }

  @Test
  @Order(6)
  void anOperatorRaisesABackupsDailyBudgetOnTheOverview() throws Exception {
    browser.get(console);
    // the overview's refresh replaces the providers' rows until the focus is in them: type afresh
    // when the field found was replaced (or not yet ready for keys) before the keys reached it
    await()
        .atMost(WAIT)
        .ignoreExceptionsMatching(
            e ->
                e instanceof StaleElementReferenceException
                    || e instanceof ElementNotInteractableException)
        .until(
            () -> {
              WebElement field = browser.findElement(By.id("budget-backup2c"));
              field.clear();
              field.sendKeys("25");
              browser
                  .findElement(By.xpath("//button[@aria-label='Set the daily budget of backup2c']"))
                  .click();
              return true;
            });
    assertThat(browser.findElement(By.id("outcome")).getText())
        .contains("The daily budget of backup2c is now 25.00 (was 10.00)");
    pages.add(browser.getPageSource());
    assertThat(
            app.getBean(CaptchaJobs.class).operations().providers().stream()
                .filter(p -> p.name().equals("backup2c"))
                .findFirst()
                .orElseThrow()
                .dailyBudget())
        .isEqualByComparingTo("25");
    browser.get(console);
    assertThat(browser.findElement(By.id("providers")).getText()).contains("0.006 25.00");
  }

  @Test
  @Order(7)
  void noPageOrRefreshCarriesTheApiKeyATokenOrThePassword() throws Exception {
    HttpResponse<String> json = get(console + "api/overview");
    assertThat(json.statusCode()).isEqualTo(200);
    pages.add(json.body());
    for (String path :
        List.of(
            "",
            "solves",
            "dead",
            "dead?code=ERROR_PROXY_CONNECTION_FAILED",
            "solves/" + dead,
            "solves/" + proxied,
            "solves/" + breakerSolve)) {
      pages.add(get(console + path).body());
    }
    List<String> tokens = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT token FROM captchajobs.solve WHERE token IS NOT NULL")) {
      while (rs.next()) {
        tokens.add(rs.getString(1));
      }
    }
    assertThat(tokens).as("solved, unclaimed tokens exist to look for").isNotEmpty();
    assertThat(pages).hasSizeGreaterThan(8);
    for (String html : pages) {
      assertThat(html).doesNotContain(KEY).doesNotContain(PASSWORD).doesNotContain(PROXY_PASSWORD);
      for (String token : tokens) {
        assertThat(html).doesNotContain(token);
      }
    }
  }

  private static String awaitRefreshedAfter(String previous) {
    String[] seen = {null};
    await()
        .atMost(WAIT)
        .until(
            () -> {
              seen[0] = browser.findElement(By.tagName("body")).getAttribute("data-refreshed");
              return seen[0] != null && !seen[0].equals(previous);
            });
    return seen[0];
  }

  private static String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  /** Keeps the page's HTML for the secrets check and saves its screenshot. */
  /**
   * Clicks what leads to another page (a link, a form's button) and waits until the browser shows
   * that page: read at once, elements that both pages have (the solves table) could still be the
   * old page's.
   */
  private static void clickToNextPage(By what) {
    JavascriptExecutor js = (JavascriptExecutor) browser;
    js.executeScript("window.__leaving = true;");
    browser.findElement(what).click();
    await()
        .atMost(WAIT)
        .until(
            () ->
                Boolean.TRUE.equals(
                    js.executeScript(
                        "return window.__leaving === undefined"
                            + " && document.readyState === 'complete';")));
  }

  private static void keep(String name) throws IOException {
    pages.add(browser.getPageSource());
    Files.createDirectories(SCREENSHOTS);
    byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
    Files.write(SCREENSHOTS.resolve(name + ".png"), png);
  }

  /** The in.php calls the simulator refused for the sitekey {@code invalid}: console-dead's. */
  private static long refusedInPhpCalls() {
    return sim.requests().stream()
        .filter(r -> RequestRecord.IN.equals(r.endpoint()) && BAD_SITEKEY.equals(r.outcome()))
        .count();
  }

  private static long inPhpCallsFor(String pageUrl) {
    return sim.tasks().stream().filter(t -> pageUrl.equals(t.pageUrl())).count();
  }

  private static int requeuesOf(UUID id) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        PreparedStatement ps =
            c.prepareStatement("SELECT requeues FROM captchajobs.solve WHERE id = ?")) {
      ps.setObject(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private static void sql(String statement) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  /** Sixty final solves of batch {@code paging}, a minute apart, older than the others. */
  private static void seedOldSolvesForPaging() throws SQLException {
    sql(
        "INSERT INTO captchajobs.solve (id, client, business_key, type, params, payload_hash,"
            + " status, batch, created_at, updated_at)"
            + " SELECT gen_random_uuid(), 'default', 'page-' || lpad(n::text, 3, '0'), 'TURNSTILE',"
            + " '{}'::jsonb, repeat('0', 64), 'EXPIRED', 'paging',"
            + " now() - interval '2 hours' + n * interval '1 minute', now() - interval '1 hour'"
            + " FROM generate_series(1, 60) n");
  }

  /**
   * A priced backup beside the primary, as a worker configured with one registers it, with today's
   * spend; this node has no lane for it, so no solve goes there.
   */
  private static void seedBackupProvider() throws SQLException {
    sql(
        "INSERT INTO captchajobs.gate_provider (name, role, capacity, key_fingerprint, prices,"
            + " daily_budget) VALUES ('backup2c', 'BACKUP', 4, 'fp-backup',"
            + " '{\"TURNSTILE\": 0.002}', 10)");
    sql(
        "INSERT INTO captchajobs.provider_spend (provider, day, type, solves, amount)"
            + " VALUES ('backup2c', (now() AT TIME ZONE 'UTC')::date, 'TURNSTILE', 3, 0.006)");
  }

  private static String basic() {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url)).header("Authorization", basic()).GET().build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(String url, String form, String origin)
      throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", basic())
                .header("Origin", origin)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static WebDriver chromium() throws IOException {
    Path profile = Files.createTempDirectory("captchajobs-console-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1400",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File("/usr/bin/chromedriver"))
            .usingAnyFreePort()
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    driver.manage().timeouts().implicitlyWait(Duration.ofSeconds(5));
    return driver;
  }
}
