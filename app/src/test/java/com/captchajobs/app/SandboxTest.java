package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

/** The app node with no configuration at all is the sandbox (here as root, as on CI). */
@ExtendWith(OutputCaptureExtension.class)
class SandboxTest {

  @Test
  void withNoConfigurationTheAppStartsTheSandboxServesHealthAndPrintsHowToUseIt(
      CapturedOutput output) throws Exception {
    ConfigurableApplicationContext app =
        AppApplication.builder()
            .properties(Map.of("server.port", "0", "management.server.port", "0"))
            .run();
    int dbPort;
    try {
      Environment env = app.getEnvironment();
      String token = env.getProperty("captchajobs.api.tokens");
      Api api = new Api(TestApps.port(app), token);

      Api management = new Api(TestApps.managementPort(app), token);
      HttpResponse<String> health =
          management.send(management.request("/actuator/health", null).GET().build());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(Api.json(health).get("status").stringValue()).isEqualTo("UP");
      assertThat(env.getProperty("captchajobs.worker.enabled")).isEqualTo("true");
      assertThat(env.getProperty("spring.datasource.url"))
          .startsWith("jdbc:postgresql://localhost:");
      assertThat(output.getOut())
          .contains(
              "CaptchaJobs sandbox",
              "Bearer " + token,
              "/api/solves",
              env.getProperty("captchajobs.dashboard.password"));

      String dashboard =
          "http://127.0.0.1:"
              + env.getProperty("captchajobs.dashboard.port")
              + "/api/jobs?state=FAILED";
      HttpResponse<String> anonymous =
          api.send(HttpRequest.newBuilder(URI.create(dashboard)).GET().build());
      assertThat(anonymous.statusCode()).isEqualTo(401);

      // every URL the banner prints answers as it says
      String banner = output.getOut();
      HttpResponse<String> bannerHealth =
          api.send(HttpRequest.newBuilder(URI.create(urlAfter(banner, "health"))).GET().build());
      assertThat(bannerHealth.statusCode()).isEqualTo(200);
      assertThat(Api.json(bannerHealth).get("status").stringValue()).isEqualTo("UP");
      String bannerDashboard = urlAfter(banner, "dashboard");
      assertThat(bannerDashboard).endsWith("/dashboard");
      HttpResponse<String> dashboardPage =
          api.send(
              HttpRequest.newBuilder(URI.create(bannerDashboard))
                  .header(
                      "Authorization",
                      "Basic "
                          + java.util.Base64.getEncoder()
                              .encodeToString(
                                  (env.getProperty("captchajobs.dashboard.username")
                                          + ":"
                                          + env.getProperty("captchajobs.dashboard.password"))
                                      .getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                  .GET()
                  .build());
      assertThat(dashboardPage.statusCode()).isEqualTo(200);
      String bannerConsole = urlAfter(banner, "console");
      assertThat(bannerConsole).endsWith("/console/");
      HttpResponse<String> consolePage =
          api.send(
              HttpRequest.newBuilder(URI.create(bannerConsole))
                  .header(
                      "Authorization",
                      dashboardPage.request().headers().firstValue("Authorization").orElseThrow())
                  .GET()
                  .build());
      assertThat(consolePage.statusCode()).isEqualTo(200);
      assertThat(consolePage.body()).contains("CaptchaJobs console", "Solves in flight");
      assertThat(urlAfter(banner, "REST API"))
          .isEqualTo("http://localhost:" + TestApps.port(app) + "/api/solves");

      HttpResponse<String> enqueued =
          api.post(
              "/api/solves",
              "{\"businessKey\":\"sandbox-1\",\"type\":\"TURNSTILE\","
                  + "\"sitekey\":\"0x4AAAAAAADnPIDROrmt1Wwj\",\"pageUrl\":\"https://example.com/login\"}");
      assertThat(enqueued.statusCode()).isEqualTo(202);
      dbPort = URI.create(env.getProperty("spring.datasource.url").substring(5)).getPort();
    } finally {
      app.close();
    }
    // The embedded database stops with the node.
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new Socket("localhost", dbPort).close())
        .isInstanceOf(java.io.IOException.class);
  }

  /** The URL on the banner line that starts with {@code label}. */
  private static String urlAfter(String banner, String label) {
    return banner
        .lines()
        .filter(line -> line.strip().startsWith(label + " "))
        .map(line -> line.strip().substring(label.length()).strip().split("\\s+")[0])
        .findFirst()
        .orElseThrow(() -> new AssertionError("no banner line " + label));
  }

  @Test
  void aSandboxGivenItsOwnTokenAndDashboardPasswordPrintsNeitherInItsBanner(CapturedOutput output) {
    String token = "configured-sandbox-token-0123456789";
    String password = "configured-dashboard-password-0123";
    ConfigurableApplicationContext app =
        AppApplication.builder()
            .properties(
                Map.of(
                    "server.port", "0",
                    "management.server.port", "0",
                    "captchajobs.api.tokens", token,
                    "captchajobs.dashboard.username", "ops",
                    "captchajobs.dashboard.password", password))
            .run();
    try {
      assertThat(app.getEnvironment().getProperty("captchajobs.api.tokens")).isEqualTo(token);
      assertThat(output.getOut())
          .contains(
              "CaptchaJobs sandbox", "captchajobs.api.tokens", "captchajobs.dashboard.password")
          .doesNotContain(token, password);
    } finally {
      app.close();
    }
  }
}
