package com.captchajobs.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.spring.boot.MissingDashboardCredentialsException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class DashboardCredentialsTest {

  @Test
  void withNeitherBothPropertiesAreNamed() {
    assertThat(new MissingDashboardCredentialsException(false, false))
        .hasMessageContaining("captchajobs.dashboard.username")
        .hasMessageContaining(
            "missing: captchajobs.dashboard.username, captchajobs.dashboard.password)");
  }

  @Test
  void aUsernameWithoutAPasswordNamesOnlyThePassword() {
    assertThat(new MissingDashboardCredentialsException(true, false))
        .hasMessageContaining("missing: captchajobs.dashboard.password)");
  }
}
