package com.captchajobs.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.internal.engine.EngineSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CaptchaAiPropertiesTest {

  @Test
  void defaultsAreTheLibrarysOwnConstants() {
    CaptchaAiProperties properties = new CaptchaAiProperties();

    assertThat(properties.toSettings()).isEqualTo(EngineSettings.defaults());
    assertThat(properties.getBaseUrl()).isEqualTo(CaptchaAiClient.DEFAULT_BASE_URL);
    assertThat(properties.getConnectTimeout()).isEqualTo(CaptchaAiClient.DEFAULT_CONNECT_TIMEOUT);
    assertThat(properties.getReadTimeout()).isEqualTo(CaptchaAiClient.DEFAULT_READ_TIMEOUT);
  }

  @Test
  void theDefaultsAreValid() {
    new CaptchaAiProperties().validate();
  }

  @Test
  void aPollIntervalBelowFiveSecondsIsRejectedNamingTheKey() {
    CaptchaAiProperties properties = new CaptchaAiProperties();
    properties.setPollInterval(Duration.ofSeconds(2));

    assertThatThrownBy(properties::validate)
        .hasMessage("captchaai.poll-interval must be at least 5s");
  }

  @Test
  void aCapBelowOneIsRejectedNamingTheKey() {
    CaptchaAiProperties properties = new CaptchaAiProperties();
    properties.setThreads(0);

    assertThatThrownBy(properties::validate).hasMessage("captchaai.threads must be at least 1");
  }

  @Test
  void aLeaseNoLongerThanTheSolveTimeoutIsRejectedNamingBothKeys() {
    CaptchaAiProperties properties = new CaptchaAiProperties();
    properties.setLease(Duration.ofSeconds(120));

    assertThatThrownBy(properties::validate)
        .hasMessage("captchaai.lease must be longer than captchaai.solve-timeout");
  }

  @Test
  void aSolveDeadlineNoLongerThanTheSolveTimeoutIsRejectedNamingBothKeys() {
    CaptchaAiProperties properties = new CaptchaAiProperties();
    properties.setSolveDeadline(Duration.ofSeconds(120));

    assertThatThrownBy(properties::validate)
        .hasMessage("captchaai.solve-deadline must be longer than captchaai.solve-timeout");
  }

  @Test
  void theKeyNeverShowsInToString() {
    CaptchaAiProperties properties = new CaptchaAiProperties();
    properties.setApiKey("secretSECRETsecretSECRETsecret12");

    assertThat(properties.toString()).doesNotContain("secretSECRET").contains("***");
  }
}
