package com.captchajobs.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.model.SolveStatus;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.core.testing.SolveProbe;
import com.captchajobs.simulator.CaptchaAiSimulator;
import com.captchajobs.worker.testing.WorkerNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.storage.StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A dashboard node beside a worker that has run solves: authentication on the dashboard's own port,
 * health on the management port, and API responses that show type and business key but never the
 * API key or a token.
 */
class DashboardApiTest {

  static final String KEY = "dashboardKeyDASHBOARDkeyDASHB123";
  static final String SOLVED = "dash-solved";
  static final String FAILED = "dash-failed";

  static CaptchaAiSimulator sim;
  static WorkerNode worker;
  static DashboardNode dashboard;
  static UUID solvedId;
  static UUID failedId;
  static String token;

  @BeforeAll
  static void runSolvesAndStartTheDashboard() {
    sim = CaptchaAiSimulator.builder().account(KEY, 5).timeScale(0.05).build().start();
    String db = EmbeddedPostgresSupport.newDatabase();
    worker =
        WorkerNode.start(
            db, sim.baseUrl(), KEY, Map.of("captchaai.first-poll-wait.TURNSTILE", "1s"));
    dashboard = DashboardNode.start(db, Map.of());
    SolveProbe solves = worker.probe();
    solvedId = solves.turnstile(SOLVED);
    failedId =
        solves.enqueue(
            FAILED,
            CaptchaType.TURNSTILE,
            Map.of("sitekey", "invalid", "pageUrl", SolveProbe.pageUrl(FAILED)));
    solves.awaitStatus(solvedId, SolveStatus.SOLVED);
    solves.awaitStatus(failedId, SolveStatus.FAILED);
    // read before anyone claims it: claiming clears the column
    token = solves.token(solvedId);
    // the failed job reaches JobRunr's FAILED state a moment after the solve's own status
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofMinutes(1))
        .until(() -> dashboard.api("/api/jobs?state=FAILED").body().contains(FAILED));
  }

  @AfterAll
  static void stop() {
    dashboard.close();
    worker.close();
    sim.close();
  }

  @Test
  void theDashboardAnswers401WithoutCredentialsAnd200WithThem() {
    for (String path : List.of("/api/jobs?state=FAILED", "/api/servers", "/dashboard/overview")) {
      assertThat(dashboard.dashboard(path).statusCode()).as(path).isEqualTo(401);
      assertThat(dashboard.dashboard(path, DashboardNode.USER, "wrong").statusCode())
          .as(path)
          .isEqualTo(401);
      assertThat(dashboard.api(path).statusCode()).as(path).isEqualTo(200);
    }
  }

  @Test
  void theNodeRunsNoJobServerAndReportsUpOnItsManagementPort() {
    HttpResponse<String> health = dashboard.actuator("/actuator/health");

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).contains("\"status\":\"UP\"");
    assertThat(dashboard.context().getBeansOfType(BackgroundJobServer.class)).isEmpty();
    // the only server the dashboard lists is the worker's: the dashboard node runs none
    String servers = dashboard.api("/api/servers").body();
    assertThat(servers)
        .contains("\"id\":\"" + worker.bean(BackgroundJobServer.class).getId() + "\"");
    assertThat(servers.split("BackgroundJobServerStatus", -1)).hasSize(2);
    assertThat(dashboard.context().getBean(CaptchaJobs.class).runsWorker()).isFalse();
  }

  @Test
  void
      neitherAnonymousCallersNorTheDashboardPasswordReadTheManagementEndpointsOfTheDashboardNode() {
    for (String path :
        List.of(
            "/actuator",
            "/actuator/breaker",
            "/actuator/metrics",
            "/actuator/prometheus",
            "/actuator/info")) {
      HttpResponse<String> anonymous = dashboard.actuator(path);
      HttpResponse<String> withDashboardPassword =
          DashboardNode.get(
              dashboard.managementPort(), path, DashboardNode.USER + ":" + DashboardNode.PASSWORD);
      HttpResponse<String> onServerPort = DashboardNode.get(dashboard.serverPort(), path, null);

      assertThat(anonymous.statusCode()).as(path).isEqualTo(401);
      assertThat(withDashboardPassword.statusCode()).as(path).isEqualTo(401);
      assertThat(onServerPort.statusCode()).as(path).isIn(401, 403, 404);
      assertThat(anonymous.body() + withDashboardPassword.body() + onServerPort.body())
          .doesNotContain("jvm_", "\"names\"", "\"_links\"");
    }
  }

  @Test
  void noDashboardApiResponseContainsTheApiKeyOrAStoredToken() {
    assertThat(token).isNotBlank();
    Map<String, String> bodies = new LinkedHashMap<>();
    for (StateName state : StateName.values()) {
      bodies.put(
          "/api/jobs?state=" + state,
          dashboard.api("/api/jobs?state=" + state + "&offset=0&limit=100").body());
    }
    for (UUID job :
        List.of(
            SolveJobs.enqueueJobId(solvedId),
            SolveJobs.enqueueJobId(failedId),
            SolveJobs.pollJobId(solvedId, 1, 1))) {
      bodies.put("/api/jobs/" + job, dashboard.api("/api/jobs/" + job).body());
    }
    for (String path :
        List.of("/api/servers", "/api/recurring-jobs", "/api/problems", "/api/version")) {
      bodies.put(path, dashboard.api(path).body());
    }

    assertThat(bodies.get("/api/jobs?state=SUCCEEDED")).contains(SOLVED);
    assertThat(bodies.get("/api/jobs/" + SolveJobs.enqueueJobId(solvedId)))
        .contains("Submit TURNSTILE " + SOLVED);
    List<String> leaks = new ArrayList<>();
    bodies.forEach(
        (path, body) -> {
          if (body.contains(KEY) || body.contains(token)) {
            leaks.add(path);
          }
        });
    assertThat(leaks).as("responses containing the key or a token").isEmpty();
  }

  @Test
  void theFailedListShowsTypeBusinessKeyAndErrorCodeWithoutOpeningTheJob() {
    String failedList = dashboard.api("/api/jobs?state=FAILED").body();

    assertThat(failedList)
        .contains("\"jobName\":\"Submit TURNSTILE " + FAILED + "\"")
        .contains("\"TURNSTILE\"")
        .contains("\"key:" + FAILED + "\"")
        .contains("ERROR_BAD_TOKEN_OR_PAGEURL")
        .doesNotContain(KEY);
  }

  @Test
  void aCrossSiteRequestToAMutatingEndpointIsRefusedEvenWithTheCredentials() {
    UUID job = SolveJobs.enqueueJobId(solvedId);
    StorageProvider jobs = worker.bean(StorageProvider.class);
    StateName before = jobs.getJobById(job).getState();
    int historyBefore = jobs.getJobById(job).getJobStates().size();
    String requeue = "/api/jobs/" + job + "/requeue";

    List<HttpResponse<String>> crossSite =
        List.of(
            dashboard.send("POST", requeue, "Origin", "https://evil.example"),
            dashboard.send("POST", requeue, "Origin", "null"),
            dashboard.send("POST", requeue, "Sec-Fetch-Site", "cross-site"),
            dashboard.send("POST", requeue, "Sec-Fetch-Site", "same-site"),
            dashboard.send("DELETE", "/api/jobs/" + job, "Origin", "http://127.0.0.1:1"),
            dashboard.send("DELETE", "/api/problems/some-type", "Origin", "https://evil.example"));

    assertThat(crossSite).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(403));
    assertThat(jobs.getJobById(job).getState()).isEqualTo(before).isNotEqualTo(StateName.DELETED);
    assertThat(jobs.getJobById(job).getJobStates()).hasSize(historyBefore);
    // the dashboard's own pages still get through (an unknown job: the handler answers 404)
    UUID unknown = UUID.randomUUID();
    assertThat(
            dashboard
                .send(
                    "POST",
                    "/api/jobs/" + unknown + "/requeue",
                    "Origin",
                    dashboard.origin(),
                    "Sec-Fetch-Site",
                    "same-origin")
                .statusCode())
        .isEqualTo(404);
    // reading stays open to the credentials, whatever the origin
    assertThat(
            dashboard
                .send("GET", "/api/jobs/" + job, "Origin", "https://evil.example")
                .statusCode())
        .isEqualTo(200);
  }
}
