package com.captchajobs.app.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The banner's answers line reads the pingback group, as the node is built from it. */
@Tag("unit")
class SandboxBannerTest {

  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment env = new StandardEnvironment();
    env.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return env;
  }

  @Test
  void aSandboxThatAsksForPushesSaysWhereTheyGo() {
    String text =
        SandboxBanner.text(
            environment(
                Map.of(
                    "captchaai.pingback-url",
                    "http://127.0.0.1:8080/captchaai/pingback",
                    "captchaai.pingback-secret",
                    "p".repeat(32))));

    assertThat(text)
        .contains("pushed to http://127.0.0.1:8080/captchaai/pingback/... (polls: fallback)")
        .doesNotContain("p".repeat(32));
  }

  @Test
  void aBlankPingbackUrlMeansPollingAsTheNodeTakesIt() {
    String text = SandboxBanner.text(environment(Map.of("captchaai.pingback-url", " ")));

    assertThat(text).contains("polled every 5 s (no captchaai.pingback-url)");
  }
}
