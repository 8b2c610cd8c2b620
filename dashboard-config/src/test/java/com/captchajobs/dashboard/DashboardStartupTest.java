package com.captchajobs.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.CaptchaJobs;
import com.captchajobs.core.testing.EmbeddedPostgresSupport;
import com.captchajobs.spring.boot.MissingDashboardCredentialsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The node refuses to run an unauthenticated dashboard; the sandbox gets generated credentials. */
@ExtendWith(OutputCaptureExtension.class)
class DashboardStartupTest {

  static String db;

  @BeforeAll
  static void database() {
    db = EmbeddedPostgresSupport.newDatabase();
  }

  @Test
  void withoutCredentialsTheNodeRefusesToStartAndTheAnalysisNamesBothProperties(
      CapturedOutput output) {
    assertThatThrownBy(() -> DashboardNode.startWith(db, Map.of()))
        .rootCause()
        .isInstanceOf(MissingDashboardCredentialsException.class)
        .hasMessageContaining("captchajobs.dashboard.username")
        .hasMessageContaining("captchajobs.dashboard.password");

    assertThat(output.getAll())
        .contains("APPLICATION FAILED TO START")
        .contains("missing: captchajobs.dashboard.username, captchajobs.dashboard.password")
        .contains("Set captchajobs.dashboard.username and captchajobs.dashboard.password");
  }

  @Test
  void withoutCredentialsTheProcessExitsNonZeroNamingBothProperties() throws Exception {
    Path log =
        Files.createDirectories(Path.of("target", "dashboard-processes"))
            .resolve("no-credentials.log");
    Process process =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    DashboardApplication.class.getName(),
                    "--spring.datasource.url=" + db,
                    "--server.port=0",
                    "--management.server.port=0"))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();

    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("exited").isTrue();
    assertThat(process.exitValue()).isNotZero();
    assertThat(Files.readString(log))
        .contains("APPLICATION FAILED TO START")
        .contains("captchajobs.dashboard.username and captchajobs.dashboard.password are required")
        .doesNotContain("JobRunr Dashboard started");
  }

  @Test
  void onlyAPasswordIsStillRefused() {
    assertThatThrownBy(
            () -> DashboardNode.startWith(db, Map.of("captchajobs.dashboard.password", "x")))
        .rootCause()
        .isInstanceOf(MissingDashboardCredentialsException.class)
        .hasMessageContaining("missing: captchajobs.dashboard.username)");
  }

  @Test
  void credentialsGivenUnderTheNamesOfEarlierReleasesStillGuardTheDashboard() {
    Map<String, String> legacy =
        Map.of(
            "jobrunr.dashboard.username", "ops",
            "jobrunr.dashboard.password", "legacy-password-42");
    try (DashboardNode node = DashboardNode.startWith(db, legacy)) {
      assertThat(node.dashboard("/api/jobs?state=FAILED").statusCode()).isEqualTo(401);
      assertThat(node.dashboard("/api/jobs?state=FAILED", "ops", "wrong").statusCode())
          .isEqualTo(401);
      assertThat(node.dashboard("/api/jobs?state=FAILED", "ops", "legacy-password-42").statusCode())
          .isEqualTo(200);
      assertThat(node.context().getBean(CaptchaJobs.class).runsWorker()).isFalse();
    }
  }
}
