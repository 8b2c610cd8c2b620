package com.captchajobs.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The webhook properties describe themselves through the settings they make. */
@Tag("unit")
class WebhookPropertiesTest {

  @Test
  void theTextIsTheSettingsTextWithoutTheSecret() {
    WebhookProperties properties = new WebhookProperties();
    properties.setSecret("a-node-secret-of-32-characters!!");
    properties.setRetries(4);

    assertThat(properties.toString())
        .startsWith("WebhookProperties[WebhookSettings{secret=***")
        .contains("retries=4")
        .doesNotContain("a-node-secret");
  }

  @Test
  void propertiesThatMakeNoSettingsSayWhatIsWrongInsteadOfFailing() {
    WebhookProperties properties = new WebhookProperties();
    properties.setTimeout(Duration.ofSeconds(-1));

    assertThat(properties.toString())
        .startsWith("WebhookProperties[invalid: ")
        .contains("captchajobs.webhook.timeout");
  }
}
