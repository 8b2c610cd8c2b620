package com.captchajobs.simulator;

import static com.captchajobs.simulator.ApiClient.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SimulatorMainTest {
  static final String KEY = "mainkey0mainkey0mainkey0mainkey0";

  @Test
  void startsOnThePortGivenBySpringStyleServerPort() throws IOException {
    int port = freePort();
    try (CaptchaAiSimulator sim =
        SimulatorMain.start(
            "--server.port=" + port,
            "--server.address=127.0.0.1",
            "--time-scale",
            "0.01",
            "--seed",
            "7")) {
      assertThat(sim.port()).isEqualTo(port);
      assertThat(sim.baseUrl()).isEqualTo("http://127.0.0.1:" + port);
      ApiClient client = new ApiClient(sim.baseUrl());
      assertThat(client.get("/health", params()).body()).contains("UP");
      assertThat(
              client
                  .resJson(CaptchaAiSimulator.SANDBOX_KEY, "action", "threadsinfo")
                  .get("threads")
                  .asString())
          .isEqualTo("5");
    }
  }

  @Test
  void acceptsSpaceAndEqualsFormsForKeysThreadsAndFaults() throws IOException {
    int port = freePort();
    try (CaptchaAiSimulator sim =
        SimulatorMain.start(
            "--port=" + port,
            "--key",
            KEY,
            "--threads",
            "3",
            "--over-cap",
            "queue",
            "--fault",
            "HTML_502=0.05",
            "--fault",
            "PLAIN_TEXT=0.02",
            "--slow-delay",
            "500ms",
            "--ip-ban",
            "3:1m",
            "--task-ttl=10m",
            "--string-ids")) {
      assertThat(sim.port()).isEqualTo(port);
      assertThat(sim.stats(KEY).maxInFlight()).isZero();
      sim.injectNext(
          Endpoint.RES, Fault.PLAIN_TEXT); // keep the call deterministic despite the random faults
      assertThat(
              new ApiClient(sim.baseUrl())
                  .get("/res.php", params("key", KEY, "action", "threadsinfo"))
                  .body())
          .isEqualTo("{\"threads\":\"3\",\"working_threads\":0}");
    }
  }

  @Test
  void startLineNamesUrlKeyAndThreadsButNotACustomKey() {
    SimulatorArgs sandbox = SimulatorArgs.parse();
    SimulatorArgs custom = SimulatorArgs.parse("--key", KEY, "--threads", "9");
    try (CaptchaAiSimulator a = sandbox.builder.build().start();
        CaptchaAiSimulator b = custom.builder.build().start()) {
      assertThat(SimulatorMain.startLine(a, sandbox))
          .contains(a.baseUrl(), CaptchaAiSimulator.SANDBOX_KEY, "threads=5");
      assertThat(SimulatorMain.startLine(b, custom))
          .contains(b.baseUrl(), "main…", "threads=9")
          .doesNotContain(KEY);
    }
  }

  @Test
  void badArgumentsAreRejectedWithAMessageNamingThem() {
    assertThatThrownBy(() -> SimulatorArgs.parse("--port", "eighty"))
        .hasMessageContaining("--port")
        .hasMessageContaining("eighty");
    assertThatThrownBy(() -> SimulatorArgs.parse("--bogus", "1")).hasMessageContaining("--bogus");
    assertThatThrownBy(() -> SimulatorArgs.parse("--key", "short")).hasMessageContaining("--key");
    assertThatThrownBy(() -> SimulatorArgs.parse("--fault", "NOPE=0.1"))
        .hasMessageContaining("--fault");
    assertThatThrownBy(() -> SimulatorArgs.parse("--over-cap", "sometimes"))
        .hasMessageContaining("--over-cap");
    assertThatThrownBy(() -> SimulatorArgs.parse("--time-scale"))
        .hasMessageContaining("--time-scale");
    assertThatThrownBy(() -> SimulatorArgs.parse("--slow-delay", "soon"))
        .hasMessageContaining("--slow-delay");
    assertThatThrownBy(() -> SimulatorArgs.parse("stray")).hasMessageContaining("stray");
    assertThatThrownBy(() -> SimulatorArgs.parse("--ip-ban", "3")).hasMessageContaining("--ip-ban");
    assertThatThrownBy(() -> SimulatorArgs.parse("--threads", "-1"))
        .hasMessageContaining("--threads");
    assertThatThrownBy(() -> SimulatorArgs.parse("--time-scale", "-1"))
        .hasMessageContaining("--time-scale");
  }

  @Test
  void aSimulatorStartedFromTheCommandLinePlaysANamedPricedProvider() {
    SimulatorArgs args =
        SimulatorArgs.parse(
            "--name",
            "backup",
            "--key",
            KEY,
            "--threads",
            "2",
            "--price",
            "turnstile=1.45",
            "--price",
            "RECAPTCHA_V2=2.99",
            "--balance",
            "3");
    try (CaptchaAiSimulator sim = args.builder.build().start()) {
      assertThat(sim.name()).isEqualTo("backup");
      assertThat(SimulatorMain.startLine(sim, args)).endsWith("threads=2 name=backup");
      ApiClient client = new ApiClient(sim.baseUrl());
      assertThat(client.resJson(KEY, "action", "getbalance").get("request").asString())
          .isEqualTo("3");
      client.submitJson(KEY, "method", "turnstile", "sitekey", "0x4", "pageurl", "https://m/1");
      assertThat(sim.spend(KEY))
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.type()).isEqualTo("TURNSTILE");
                assertThat(r.amount()).isEqualByComparingTo("0.00145");
              });
      assertThat(client.resJson(KEY, "action", "getbalance").get("request").asString())
          .isEqualTo("2.99855");
    }
    assertThatThrownBy(() -> SimulatorArgs.parse("--price", "HCAPTCHA=1"))
        .hasMessageContaining("--price")
        .hasMessageContaining("HCAPTCHA");
    assertThatThrownBy(() -> SimulatorArgs.parse("--price", "TURNSTILE=cheap"))
        .hasMessageContaining("--price");
    assertThatThrownBy(() -> SimulatorArgs.parse("--balance", "-1"))
        .hasMessageContaining("--balance");
    assertThatThrownBy(() -> SimulatorArgs.parse("--name", " ")).hasMessageContaining("--name");
  }

  @Test
  void durationsAcceptShortAndIsoForms() {
    assertThat(DurationConverter.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationConverter.parse("2s")).isEqualTo(Duration.ofSeconds(2));
    assertThat(DurationConverter.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(DurationConverter.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(DurationConverter.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(DurationConverter.parse("PT2S")).isEqualTo(Duration.ofSeconds(2));
    assertThat(DurationConverter.parse("1.5")).isEqualTo(Duration.ofMillis(1500));
    assertThat(DurationConverter.format(Duration.ofSeconds(20))).isEqualTo("20s");
    assertThat(DurationConverter.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThatThrownBy(() -> DurationConverter.parse("soon")).hasMessageContaining("'soon'");
  }

  @Test
  void optionsNotGivenKeepTheBuildersDefaultsAndGivenOnesAreParsed() {
    SimulatorArgs none = SimulatorArgs.parse();
    assertThat(none.threads).isEqualTo(5);
    assertThat(none.port).isNull();
    assertThat(none.keys).isEmpty();
    SimulatorArgs some =
        SimulatorArgs.parse(
            "--ip-ban", "3:1m", "--fault", "html_502=0.05", "--string-ids", "--task-ttl=90s");
    assertThat(some.ipBan).isEqualTo(new SimulatorArgs.IpBan(3, Duration.ofMinutes(1)));
    assertThat(some.faults).containsEntry(Fault.HTML_502, 0.05);
    assertThat(some.stringIds).isTrue();
    assertThat(some.taskTtl).isEqualTo(Duration.ofSeconds(90));
    SimulatorArgs twice =
        SimulatorArgs.parse("--port", "1", "--server.port=2", "--seed", "3", "--seed", "4");
    assertThat(twice.port).isEqualTo(2);
    assertThat(twice.seed).isEqualTo(4L);
    assertThat(SimulatorArgs.parse("--help").help).isTrue();
  }

  @Test
  void theHelpTextListsEveryOption() {
    assertThat(SimulatorArgs.usage())
        .contains(
            "java -jar captchajobs-simulator.jar [options]",
            "--port",
            "--server.port",
            "--address",
            "--server.address",
            "--key",
            "--threads",
            "--time-scale",
            "--seed",
            "--over-cap",
            "--fault",
            "--slow-delay",
            "--task-ttl",
            "--ip-ban",
            "--string-ids",
            "--name",
            "--price",
            "--balance",
            "--help");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
