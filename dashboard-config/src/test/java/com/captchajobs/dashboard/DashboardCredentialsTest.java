package com.captchajobs.dashboard;

import com.captchajobs.spring.boot.DashboardCredentials;
import com.captchajobs.spring.boot.MissingDashboardCredentialsException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DashboardCredentialsTest {

  @Test
  void configuredCredentialsAreUsedAsGiven() {
    DashboardCredentials c = DashboardCredentials.resolve("ops", "secret", false);

    assertThat(c.username()).isEqualTo("ops");
    assertThat(c.password()).isEqualTo("secret");
    assertThat(c.generated()).isFalse();
    assertThat(c.toString()).doesNotContain("secret");
  }

  @Test
  void withoutEitherOutsideTheSandboxBothPropertiesAreNamed() {
    assertThatThrownBy(() -> DashboardCredentials.resolve(null, " ", false))
        .isInstanceOf(MissingDashboardCredentialsException.class)
        .hasMessageContaining("jobrunr.dashboard.username")
        .hasMessageContaining("jobrunr.dashboard.password")
        .hasMessageContaining("captchajobs.sandbox=true");
  }

  @Test
  void aUsernameWithoutAPasswordIsRefusedEvenInTheSandbox() {
    assertThatThrownBy(() -> DashboardCredentials.resolve("ops", null, true))
        .isInstanceOf(MissingDashboardCredentialsException.class)
        .hasMessageContaining("missing: jobrunr.dashboard.password)");
  }

  @Test
  void theSandboxGeneratesADifferentStrongPasswordEachTime() {
    DashboardCredentials a = DashboardCredentials.resolve(null, null, true);
    DashboardCredentials b = DashboardCredentials.resolve(null, null, true);

    assertThat(a.generated()).isTrue();
    assertThat(a.username()).isEqualTo(DashboardCredentials.SANDBOX_USERNAME);
    assertThat(a.password()).hasSizeGreaterThanOrEqualTo(24).isNotEqualTo(b.password());
  }
}
