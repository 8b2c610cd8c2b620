package com.captchajobs.simulator;

import static com.captchajobs.simulator.ApiClient.params;
import static com.captchajobs.simulator.CaptchaAiSimulator.SANDBOX_KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("unit")
class KeyChecksTest {
  static final String UNKNOWN_KEY = "unknown0unknown0unknown0unknown0";

  @RegisterExtension
  static final SimulatorExtension sim =
      new SimulatorExtension(CaptchaAiSimulator.builder().ipBan(3, Duration.ofSeconds(2)));

  ApiClient client;

  @BeforeEach
  void setUp() {
    sim.get().reset();
    client = new ApiClient(sim.get().baseUrl());
  }

  @Test
  void keyOfWrongLengthIsWrongUserKeyOnBothEndpoints() {
    assertThat(client.submitJson("short", "method", "turnstile").get("request").asString())
        .isEqualTo("ERROR_WRONG_USER_KEY");
    assertThat(client.get("/res.php", params("key", "", "action", "get", "id", "1")).body())
        .isEqualTo("ERROR_WRONG_USER_KEY");
  }

  @Test
  void unknownKeyDoesNotExistAndKeyChecksComeBeforeValidation() {
    assertThat(client.submitJson(UNKNOWN_KEY, "method", "nonsense").get("request").asString())
        .isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
    assertThat(client.resJson(UNKNOWN_KEY, "action", "threadsinfo").get("request").asString())
        .isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
    assertThat(sim.get().stats().rejected("ERROR_KEY_DOES_NOT_EXIST")).isEqualTo(1);
  }

  @Test
  void ipIsBannedAfterTheBadKeyThresholdUntilTheBanEnds() {
    ApiClient banned = client.withHeader("X-Forwarded-For", "10.9.8.7");
    for (int i = 0; i < 3; i++) {
      assertThat(banned.submitJson(UNKNOWN_KEY, "method", "turnstile").get("request").asString())
          .isEqualTo("ERROR_KEY_DOES_NOT_EXIST");
    }
    // now even a good key from that IP is refused, on both endpoints, in both formats
    assertThat(
            banned
                .submitJson(
                    SANDBOX_KEY, "method", "turnstile", "sitekey", "s", "pageurl", "https://b")
                .get("request")
                .asString())
        .isEqualTo("IP_BANNED");
    assertThat(banned.get("/res.php", params("key", SANDBOX_KEY, "action", "getbalance")).body())
        .isEqualTo("IP_BANNED");
    // other clients are unaffected
    assertThat(client.resJson(SANDBOX_KEY, "action", "getbalance").get("status").asInt())
        .isEqualTo(1);

    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(25))
        .until(
            () -> banned.resJson(SANDBOX_KEY, "action", "getbalance").get("status").asInt() == 1);
  }

  @Test
  void resetLiftsIpBans() {
    ApiClient banned = client.withHeader("X-Forwarded-For", "10.9.8.6");
    for (int i = 0; i < 3; i++) {
      banned.submitJson("bad", "method", "turnstile");
    }
    assertThat(banned.resJson(SANDBOX_KEY, "action", "getbalance").get("request").asString())
        .isEqualTo("IP_BANNED");
    sim.get().reset();
    assertThat(banned.resJson(SANDBOX_KEY, "action", "getbalance").get("request").asString())
        .isEqualTo("15.50");
  }
}
