package com.captchajobs.core.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The pingback group on its own: which URLs it takes, what a node does with it, what it shows. */
@Tag("unit")
class PingbackSettingsTest {

  private static final String SECRET = "pingback-secret-0123456789abcdef";

  @Test
  void noneNeitherReceivesNorAsksForPushes() {
    PingbackSettings none = PingbackSettings.none();

    assertThat(none.receives()).isFalse();
    assertThat(none.asksForPushes()).isFalse();
    assertThat(none.register()).isEqualTo(PingbackSettings.DEFAULT_REGISTER);
  }

  @Test
  void aSecretAloneReceivesAndAUrlWithItAlsoAsksForPushes() {
    PingbackSettings app = PingbackSettings.builder().secret(SECRET).build();
    PingbackSettings worker =
        app.toBuilder().url("https://solves.example.com/captchaai/pingback").build();

    assertThat(app.receives()).isTrue();
    assertThat(app.asksForPushes()).isFalse();
    assertThat(worker.asksForPushes()).isTrue();
  }

  @Test
  void aUrlWithoutTheSecretIsRefusedNamingBothMethods() {
    assertThatThrownBy(
            () -> PingbackSettings.builder().url("https://a.example/captchaai/pingback").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "PingbackSettings.secret(String) is required with PingbackSettings.url(String)");
  }

  @Test
  void clearTextIsTakenOnlyForThisHost() {
    PingbackSettings.Builder builder = PingbackSettings.builder().secret(SECRET);

    assertThat(builder.url("http://127.0.0.1:8080/captchaai/pingback").build().url())
        .startsWith("http://127.0.0.1");
    assertThatThrownBy(() -> builder.url("http://solves.example.com/captchaai/pingback").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("PingbackSettings.url(String) must be https unless it names");
    assertThatThrownBy(() -> builder.url("https://a.example/captchaai/pingback?x=1").build())
        .hasMessageStartingWith("PingbackSettings.url(String) must be an absolute http(s) URL");
  }

  @Test
  void itsTextShowsTheUrlButNeverTheSecret() {
    PingbackSettings settings =
        PingbackSettings.builder()
            .secret(SECRET)
            .url("https://solves.example.com/captchaai/pingback")
            .build();

    assertThat(settings.toString()).contains("solves.example.com").doesNotContain(SECRET);
  }
}
