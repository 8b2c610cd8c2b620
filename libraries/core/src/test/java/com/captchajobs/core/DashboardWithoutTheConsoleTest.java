package com.captchajobs.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.settings.InvalidSettingException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The core serves no HTTP: a node whose dashboard is enabled needs captchajobs-console, which the
 * core's own tests do not have, and is refused before it touches anything.
 */
@Tag("unit")
class DashboardWithoutTheConsoleTest {

  @Test
  void aDashboardWithoutCaptchajobsConsoleIsRefusedNamingTheArtifactBeforeTheDatabaseIsAsked() {
    List<String> asked = new ArrayList<>();
    DataSource untouchable =
        (DataSource)
            Proxy.newProxyInstance(
                DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                  asked.add(method.getName());
                  throw new AssertionError("the data source was asked: " + method.getName());
                });

    assertThatThrownBy(
            () ->
                CaptchaJobs.builder()
                    .dataSource(untouchable)
                    .dashboard(0, "ops", "twelve-chars")
                    .build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "the dashboard (dashboard(int, String, String)) is served by"
                + " com.captchajobs:captchajobs-console, which is not on the class path: add it"
                + " (captchajobs-bom pins its version) or leave the dashboard off");
    assertThat(asked).isEmpty();
  }

  @Test
  void theCoreHasNoConsoleAndNoDashboardServerOfItsOwn() {
    assertThat(
            CaptchaJobs.class.getResource(
                "/META-INF/services/com.captchajobs.core.internal.dashboard.DashboardServing"))
        .isNull();
    assertThat(CaptchaJobs.class.getResource("/captchajobs-console/console.js")).isNull();
  }
}
