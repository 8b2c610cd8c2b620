package com.captchajobs.core.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The webhook group on its own: what it shows, what it copies, which shares it refuses. */
@Tag("unit")
class WebhookSettingsTest {

  private static final String NODE_SECRET = "node-secret-0123456789abcdef";
  private static final String CLIENT_SECRET = "client-secret-0123456789abcdef";

  @Test
  void itsTextNamesTheClientsWithASecretButShowsNoSecret() {
    WebhookSettings settings =
        WebhookSettings.builder().secret(NODE_SECRET).clientSecret("shop", CLIENT_SECRET).build();

    assertThat(settings.toString())
        .contains("shop")
        .doesNotContain(NODE_SECRET)
        .doesNotContain(CLIENT_SECRET);
  }

  @Test
  void aClientSecretAloneIsEnoughToSign() {
    assertThat(WebhookSettings.defaults().signs()).isFalse();
    assertThat(WebhookSettings.builder().clientSecret("shop", CLIENT_SECRET).build().signs())
        .isTrue();
  }

  @Test
  void builtSettingsKeepTheirHostsWhateverTheCallerDoesToItsListAfterwards() {
    List<String> hosts = new ArrayList<>(List.of("hooks.internal:8443"));
    WebhookSettings settings = WebhookSettings.builder().allowedHosts(hosts).build();

    hosts.add("169.254.169.254");

    assertThat(settings.allowedHosts()).containsExactly("hooks.internal:8443");
    assertThatThrownBy(() -> settings.allowedHosts().add("evil"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aShareOfOneClientAboveAllTheThreadsIsRefusedNamingBothMethods() {
    assertThatThrownBy(() -> WebhookSettings.builder().threads(4).threadsPerClient(5).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "WebhookSettings.threadsPerClient(Integer) must be between 1 and"
                + " WebhookSettings.threads(int)");
  }

  @Test
  void settingsRebuiltFromTheirBuilderAreEqualToThem() {
    WebhookSettings settings =
        WebhookSettings.builder()
            .secret(NODE_SECRET)
            .clientSecret("shop", CLIENT_SECRET)
            .threads(7)
            .retries(2)
            .includeToken(true)
            .build();

    assertThat(settings.toBuilder().build()).isEqualTo(settings);
    assertThat(settings.threadsPerClient()).isEqualTo(3); // (7 - 1) / 2
  }
}
