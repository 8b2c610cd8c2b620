package com.captchajobs.core.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A node's settings may end up in a log line or an exception: their text never holds a secret. */
@Tag("unit")
class NodeSettingGroupsSecretsTest {

  static final String SECRET = "s3cr3t-pingback-key-0123456789abcdef";

  @Test
  void thePingbackSettingsShowTheirUrlAndNeverTheirSecret() {
    String text =
        new PingbackSettings("https://app.example.test/captchaai/pingback", SECRET, true)
            .toString();

    assertThat(text).contains("https://app.example.test/captchaai/pingback").doesNotContain(SECRET);
  }

  @Test
  void theWebhookSettingsNameTheClientsWithASecretAndShowNoSecret() {
    String text =
        WebhookSettings.builder()
            .secret(SECRET)
            .clientSecret("shop", "client-secret-of-the-shop-0123456789")
            .allowedHosts(List.of("https://hooks.example.test"))
            .build()
            .toString();

    assertThat(text)
        .contains("shop", "https://hooks.example.test")
        .doesNotContain(SECRET, "client-secret-of-the-shop-0123456789");
  }

  @Test
  void theDashboardSettingsShowTheirUserAndNeverTheirPassword() {
    String text = new DashboardSettings(8000, "127.0.0.1", "operator", SECRET).toString();

    assertThat(text).contains("8000", "operator").doesNotContain(SECRET);
  }
}
