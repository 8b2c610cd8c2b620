package com.captchajobs.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.settings.SolveSettings;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class CaptchaAiPropertiesTest {

  @Test
  void defaultsAreTheLibrarysOwnConstants() {
    CaptchaAiProperties properties = new CaptchaAiProperties();

    assertThat(properties.toSettings()).isEqualTo(SolveSettings.defaults());
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

  @Test
  void aPingbackUrlWithoutASecretIsRejectedNamingBothKeys() {
    CaptchaAiProperties properties = new CaptchaAiProperties();
    properties.setPingbackUrl("https://solves.example.com/captchaai/pingback");

    assertThatThrownBy(properties::validate)
        .hasMessage("captchaai.pingback-secret is required with captchaai.pingback-url");
  }

  @Test
  void aPlainHttpPingbackUrlToAnotherHostIsRejectedNamingTheKeyAndLoopbackHttpIsAccepted() {
    CaptchaAiProperties clear = new CaptchaAiProperties();
    clear.setPingbackSecret("pingback-secret-0123456789-0123456789");
    clear.setPingbackUrl("http://solves.example.com/captchaai/pingback");
    assertThatThrownBy(clear::validate)
        .hasMessageStartingWith("captchaai.pingback-url must be https unless it names this host");

    CaptchaAiProperties lookalike = new CaptchaAiProperties();
    lookalike.setPingbackSecret("pingback-secret-0123456789-0123456789");
    lookalike.setPingbackUrl("http://127.0.0.1.nip.example/captchaai/pingback");
    assertThatThrownBy(lookalike::validate)
        .hasMessageStartingWith("captchaai.pingback-url must be https unless it names this host");

    for (String loopback :
        new String[] {
          "http://localhost:8080/captchaai/pingback",
          "http://127.0.0.1:8080/captchaai/pingback",
          "http://[::1]:8080/captchaai/pingback",
          "https://solves.example.com/captchaai/pingback"
        }) {
      CaptchaAiProperties ok = new CaptchaAiProperties();
      ok.setPingbackSecret("pingback-secret-0123456789-0123456789");
      ok.setPingbackUrl(loopback);
      ok.validate();
    }
    assertThat(new CaptchaAiProperties().isPingbackRegister()).isTrue();
  }

  @Test
  void aShortPingbackSecretAndAPingbackUrlWithAQueryAreRejected() {
    CaptchaAiProperties shortSecret = new CaptchaAiProperties();
    shortSecret.setPingbackSecret("too-short");
    assertThatThrownBy(shortSecret::validate)
        .hasMessage("captchaai.pingback-secret must be at least 32 characters");

    CaptchaAiProperties query = new CaptchaAiProperties();
    query.setPingbackSecret("pingback-secret-0123456789-0123456789");
    query.setPingbackUrl("https://solves.example.com/captchaai/pingback?x=1");
    assertThatThrownBy(query::validate)
        .hasMessage(
            "captchaai.pingback-url must be an absolute http(s) URL without query or fragment");
  }

  @Test
  void thePingbackSecretNeverShowsInToString() {
    CaptchaAiProperties properties = new CaptchaAiProperties();
    properties.setPingbackSecret("pingbackSECRETpingbackSECRET0123456789");

    assertThat(properties.toString()).doesNotContain("pingbackSECRET").contains("***");
  }

  @Test
  void aValueTheLibraryRefusesIsNamedByItsKey() {
    CaptchaAiProperties properties = new CaptchaAiProperties();
    properties.getFirstPollWait().put(CaptchaType.TURNSTILE, Duration.ofMillis(500));

    assertThatThrownBy(properties::validate)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("captchaai.first-poll-wait.TURNSTILE must be at least 1s");
  }

  @Test
  void everySolveSettingIsBoundHereUnderTheKeyThatNamesItInMessages() {
    for (Method m : SolveSettings.Builder.class.getDeclaredMethods()) {
      if (!Modifier.isPublic(m.getModifiers()) || m.getName().equals("build")) {
        continue;
      }
      String key = PropertyNames.of(m.getName());
      assertThat(key).as(m.getName()).startsWith("captchaai.");
      assertThat(Arrays.stream(CaptchaAiProperties.class.getDeclaredFields()))
          .as("a field of CaptchaAiProperties bound to " + key)
          .anyMatch(f -> f.getName().equals(m.getName()));
    }
  }

  @Test
  void theBuildersSettingsOutsideCaptchaaiHaveTheirKeys() {
    assertThat(PropertyNames.of("WorkerSettings.pollInterval"))
        .isEqualTo("captchajobs.worker.poll-interval");
    assertThat(PropertyNames.of("WebhookSettings.threadsPerClient"))
        .isEqualTo("captchajobs.webhook.threads-per-client");
    assertThat(PropertyNames.of("RetentionSettings.retention")).isEqualTo("captchajobs.retention");
    assertThat(PropertyNames.of("CaptchaJobs.Builder.reportWindow"))
        .isEqualTo("captchajobs.report-window");
    assertThat(PropertyNames.of("PingbackSettings.secret")).isEqualTo("captchaai.pingback-secret");
    assertThat(PropertyNames.of("pollInterval")).isEqualTo("captchaai.poll-interval");
  }
}
