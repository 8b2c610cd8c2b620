package com.captchajobs.core.internal.jobrunr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jobrunr.jobs.Job;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SupportedJobRunrTest {

  @Test
  void theJobRunrOnTheClassPathIsTheOneWeAreBuiltWithAndIsAccepted() {
    assertThat(Job.class.getPackage().getImplementationVersion())
        .isEqualTo(SupportedJobRunr.builtWith());
    assertThatCode(SupportedJobRunr::require).doesNotThrowAnyException();
  }

  @Test
  void theTestedRangeRunsFromEightFourToBelowEightEight() {
    assertThat(SupportedJobRunr.testedFrom()).isEqualTo("8.4.0");
    assertThat(SupportedJobRunr.testedBelow()).isEqualTo("8.8.0");
    assertThat(SupportedJobRunr.isSupported("8.4.0")).isTrue();
    assertThat(SupportedJobRunr.isSupported("8.7.0")).isTrue();
    assertThat(SupportedJobRunr.isSupported("8.7.12")).isTrue();
  }

  @Test
  void aJobRunrBelowTheTestedRangeIsRefusedNamingBothVersions() {
    assertThatThrownBy(() -> SupportedJobRunr.require("8.3.1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("JobRunr 8.3.1")
        .hasMessageContaining("8.4.0")
        .hasMessageContaining("built with " + SupportedJobRunr.builtWith());
  }

  @Test
  void aJobRunrAboveTheTestedRangeIsRefusedToo() {
    assertThatThrownBy(() -> SupportedJobRunr.require("8.8.0-RC1"))
        .hasMessageContaining("JobRunr 8.8.0-RC1")
        .hasMessageContaining("below 8.8.0");
    assertThatThrownBy(() -> SupportedJobRunr.require("9.0.0")).hasMessageContaining("9.0.0");
  }

  @Test
  void anUnknownVersionIsNotRefused() {
    assertThatCode(() -> SupportedJobRunr.require(null)).doesNotThrowAnyException();
  }
}
