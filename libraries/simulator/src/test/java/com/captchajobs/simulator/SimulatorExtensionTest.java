package com.captchajobs.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("unit")
class SimulatorExtensionTest {
  @RegisterExtension static final SimulatorExtension sim = new SimulatorExtension();

  @Test
  void extensionStartsTheSimulatorBeforeAllTests() {
    assertThat(new ApiClient(sim.get().baseUrl()).get("/health", ApiClient.params()).statusCode())
        .isEqualTo(200);
  }

  @Nested
  class NestedTests {
    @Test
    void nestedClassesShareTheOuterSimulator() {
      assertThat(sim.get().baseUrl()).startsWith("http://127.0.0.1:");
      assertThat(new ApiClient(sim.get().baseUrl()).get("/health", ApiClient.params()).statusCode())
          .isEqualTo(200);
    }
  }

  @Test
  void wildcardBindAddressIsReportedAsLoopback() {
    try (CaptchaAiSimulator any = CaptchaAiSimulator.builder().address("0.0.0.0").build().start()) {
      assertThat(any.baseUrl()).isEqualTo("http://127.0.0.1:" + any.port());
    }
  }
}
