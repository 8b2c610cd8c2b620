package com.captchajobs.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.captchajobs.simulator.CaptchaAiSimulator;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's "Running a fleet" runs as written: its three nodes, each started from its jar in its
 * own JVM with the README's flags and environment variables, come up on a fresh PostgreSQL whose
 * user is the one the README exports ({@code captchajobs}, named like our schema), and a solve
 * enqueued over the REST API ends SOLVED.
 *
 * <p>The commands and variables are read from the README's shell block ({@link ReadmeFleet}), so
 * the test runs what the README says. What it takes unchanged: every exported name and every value
 * that is not {@code ...} (the database user, the operator's roles, the dashboard user), the
 * database's name in {@code SPRING_DATASOURCE_URL}, each jar, and each flag but the ports. What it
 * fills in or adds, and why:
 *
 * <ul>
 *   <li>Each {@code ...} is a secret left to the operator: the test makes one up (the database
 *       password is the one the role is created with, the API key the simulator account's). They
 *       reach the nodes through the environment, as the README passes them.
 *   <li>The host and port of {@code SPRING_DATASOURCE_URL} are the embedded PostgreSQL's.
 *   <li>Ports: {@code --server.port} gets a free port instead of the README's 8081, 8080 and 8090,
 *       and each node also gets {@code --management.server.port} (by default app 8082, worker 8091,
 *       dashboard 8092) and the dashboard node {@code --captchajobs.dashboard.port} (8000) on free
 *       ports: fixed ports could be taken by other tests or programs on the machine. That the
 *       README's ports do not collide with each other is {@code ReadmeFleetPortsTest}'s (app).
 *   <li>The worker gets {@code --captchaai.base-url} of the in-process CaptchaAI simulator, the one
 *       setting not in the README: a real fleet talks to CaptchaAI. The simulator's plan has the
 *       README's 15 threads, and it solves a Turnstile in about a second.
 *   <li>JVM options ({@code -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC}) keep three JVMs
 *       light.
 * </ul>
 *
 * <p>The PostgreSQL is fresh and on its defaults: {@code CREATE USER} with a password, a database
 * owned by that user, no {@code ALTER ROLE}, so the user's {@code search_path} is {@code "$user",
 * public}. The role must log in with its password (scram-sha-256), so {@code
 * SPRING_DATASOURCE_PASSWORD} is really read. The nodes start together, as a fleet's usually do.
 */
class ReadmeFleetTest {

  /** The project root, seen from this module's directory ({@code tests/fleet-test}). */
  private static final Path ROOT = Path.of("..", "..");

  private static final String WORKER = "worker/target/captchajobs-worker.jar";
  private static final String APP = "app/target/captchajobs-app.jar";
  private static final String DASHBOARD = "dashboard-config/target/captchajobs-dashboard.jar";
  private static final Pattern JDBC_URL =
      Pattern.compile("jdbc:postgresql://[^/]+/([a-z_][a-z0-9_]*)");
  private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");
  private static final Pattern TOTAL = Pattern.compile("\"total\":(\\d+)");
  private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");

  /** The simulator account: a 32-character key and a plan of the README's 15 threads. */
  private static final String KEY = "readmeFleetKEYreadmeFleetKEY1234";

  private static final int PLAN_THREADS = 15;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void theReadmesFleetStartsFromItsJarsWithTheReadmesDatabaseUserAndSolvesOnce() throws Exception {
    ReadmeFleet readme = ReadmeFleet.parse(Files.readString(ROOT.resolve("README.md")));
    String user = readme.everyNode().get("SPRING_DATASOURCE_USERNAME");
    assertThat(user)
        .as("the README's database user, named like our schema")
        .isEqualTo("captchajobs");
    Matcher url = JDBC_URL.matcher(readme.everyNode().get("SPRING_DATASOURCE_URL"));
    assertThat(url.matches()).as("the README's SPRING_DATASOURCE_URL").isTrue();
    String database = url.group(1);
    assertThat(readme.node(WORKER).args()).contains("--captchaai.threads=" + PLAN_THREADS);

    Map<String, String> secrets = new LinkedHashMap<>();
    secrets.put("SPRING_DATASOURCE_PASSWORD", "db-" + UUID.randomUUID());
    secrets.put("CAPTCHAAI_API_KEY", KEY);
    secrets.put("CAPTCHAJOBS_API_TOKENS", "api-" + UUID.randomUUID());
    secrets.put("CAPTCHAJOBS_API_CLIENTS_OPS_TOKEN", "ops-" + UUID.randomUUID());
    secrets.put("CAPTCHAJOBS_DASHBOARD_PASSWORD", "dash-" + UUID.randomUUID());

    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        CaptchaAiSimulator sim =
            CaptchaAiSimulator.builder()
                .account(KEY, PLAN_THREADS)
                .solveTime("turnstile", Duration.ofMillis(400), Duration.ofMillis(1200))
                .build()
                .start()) {
      createUserAndDatabase(pg, user, secrets.get("SPRING_DATASOURCE_PASSWORD"), database);
      String jdbcUrl = "jdbc:postgresql://localhost:" + pg.getPort() + "/" + database;

      List<JarNode> started = new ArrayList<>();
      try {
        JarNode worker =
            start(
                readme, WORKER, secrets, jdbcUrl, started, "--captchaai.base-url=" + sim.baseUrl());
        JarNode app = start(readme, APP, secrets, jdbcUrl, started);
        JarNode dashboard = start(readme, DASHBOARD, secrets, jdbcUrl, started);
        for (JarNode node : started) {
          node.awaitUp();
        }

        String pageUrl = "https://example.com/readme-fleet";
        HttpResponse<String> enqueued =
            api(
                app,
                "POST",
                "/api/solves",
                "{\"businessKey\":\"readme-fleet-1\",\"type\":\"TURNSTILE\","
                    + "\"sitekey\":\"0x4AAAAAAADnPIDROrmt1Wwj\",\"pageUrl\":\""
                    + pageUrl
                    + "\"}",
                secrets.get("CAPTCHAJOBS_API_TOKENS"));
        assertThat(enqueued.statusCode()).as(enqueued.body()).isEqualTo(202);
        Matcher id = ID.matcher(enqueued.body());
        assertThat(id.find()).as(enqueued.body()).isTrue();
        String solve = "/api/solves/" + id.group(1);

        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(
                () ->
                    api(app, "GET", solve, null, secrets.get("CAPTCHAJOBS_API_TOKENS"))
                        .body()
                        .contains("\"status\":\"SOLVED\""));
        HttpResponse<String> claimed =
            api(app, "POST", solve + "/claim", null, secrets.get("CAPTCHAJOBS_API_TOKENS"));
        assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);
        assertThat(TOKEN.matcher(claimed.body()).find()).as(claimed.body()).isTrue();

        // the provider's side: one task, for this page, answered and fetched
        assertThat(sim.tasks())
            .singleElement()
            .satisfies(
                t -> {
                  assertThat(t.pageUrl()).isEqualTo(pageUrl);
                  assertThat(t.fetched()).isTrue();
                });

        // the dashboard node answers behind its basic auth, and shows the solve's jobs
        String dashboardUser = readme.node(DASHBOARD).env().get("CAPTCHAJOBS_DASHBOARD_USERNAME");
        int dashboardPort = dashboard.ports().spare();
        assertThat(dashboardGet(dashboardPort, null, null).statusCode()).isEqualTo(401);
        await()
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(250))
            .untilAsserted(
                () -> {
                  HttpResponse<String> jobs =
                      dashboardGet(
                          dashboardPort,
                          dashboardUser,
                          secrets.get("CAPTCHAJOBS_DASHBOARD_PASSWORD"));
                  assertThat(jobs.statusCode()).isEqualTo(200);
                  Matcher total = TOTAL.matcher(jobs.body());
                  assertThat(total.find()).as(jobs.body()).isTrue();
                  assertThat(Integer.parseInt(total.group(1))).isPositive();
                });

        // the database is as the README's operator left it: the role on its defaults
        assertThat(roleSettings(pg, user)).as("ALTER ROLE settings of " + user).isNull();
        for (JarNode node : started) {
          assertThat(node.log()).doesNotContain("SearchPathReachesSchemaException");
        }
      } finally {
        for (JarNode node : started) {
          node.close();
        }
      }
    }
  }

  /**
   * Starts the README's {@code jar} with its flags (free ports in place of the README's), the
   * environment it gives that node, and {@code extra} flags.
   */
  private static JarNode start(
      ReadmeFleet readme,
      String jar,
      Map<String, String> secrets,
      String jdbcUrl,
      List<JarNode> started,
      String... extra) {
    ReadmeFleet.Node node = readme.node(jar);
    Map<String, String> env = new LinkedHashMap<>();
    node.environment(readme.everyNode())
        .forEach(
            (name, value) -> {
              if (name.equals("SPRING_DATASOURCE_URL")) {
                env.put(name, jdbcUrl);
              } else if (value.equals("...")) {
                String secret = secrets.get(name);
                assertThat(secret).as("a value for the README's " + name).isNotNull();
                env.put(name, secret);
              } else {
                env.put(name, value);
              }
            });
    String name = jar.substring(0, jar.indexOf('/'));
    JarNode jarNode =
        JarNode.start(
            name,
            ROOT.resolve(jar),
            ports -> {
              List<String> args = new ArrayList<>();
              for (String arg : node.args()) {
                args.add(
                    arg.startsWith("--server.port=") ? "--server.port=" + ports.server() : arg);
              }
              args.add("--management.server.port=" + ports.management());
              if (jar.equals(DASHBOARD)) {
                args.add("--captchajobs.dashboard.port=" + ports.spare());
              }
              args.addAll(List.of(extra));
              return args;
            },
            env);
    started.add(jarNode);
    return jarNode;
  }

  /**
   * A user and a database it owns, on PostgreSQL's defaults; the user must give its password
   * (zonky's cluster trusts every local login otherwise).
   */
  private static void createUserAndDatabase(
      EmbeddedPostgres pg, String user, String password, String database) throws Exception {
    try (Connection c = pg.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE USER " + user + " PASSWORD '" + password + "'");
      s.execute("CREATE DATABASE " + database + " OWNER " + user);
      String hbaFile;
      try (ResultSet rs = s.executeQuery("SHOW hba_file")) {
        rs.next();
        hbaFile = rs.getString(1);
      }
      Files.writeString(
          Path.of(hbaFile),
          String.join(
              "\n",
              "local all postgres trust",
              "host all postgres 127.0.0.1/32 trust",
              "host all postgres ::1/128 trust",
              "host all all 127.0.0.1/32 scram-sha-256",
              "host all all ::1/128 scram-sha-256",
              ""));
      s.execute("SELECT pg_reload_conf()");
    }
  }

  private static String roleSettings(EmbeddedPostgres pg, String user) throws Exception {
    try (Connection c = pg.getPostgresDatabase().getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT array_to_string(setconfig, ',') FROM pg_db_role_setting r"
                    + " JOIN pg_roles u ON u.oid = r.setrole WHERE u.rolname = '"
                    + user
                    + "'")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private HttpResponse<String> api(
      JarNode app, String method, String path, String json, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.ports().server() + path))
            .header("Authorization", "Bearer " + token);
    if (json != null) {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(json));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> dashboardGet(int port, String user, String password)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/api/jobs?state=SUCCEEDED"));
    if (user != null) {
      request.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
