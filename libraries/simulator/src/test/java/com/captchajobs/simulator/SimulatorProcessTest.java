package com.captchajobs.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs {@link SimulatorMain} in its own JVM, as operators do with the jar. */
class SimulatorProcessTest {

  @Test
  void badArgumentExitsWithCodeTwoAndNamesTheArgument() throws Exception {
    Process process = launch("--threads", "many");
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isEqualTo(2);
    assertThat(output).contains("--threads", "many");
  }

  @Test
  void printsTheStartLineAndStopsCleanlyOnSigterm() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Process process = launch("--server.port=" + port, "--threads", "7");
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    List<String> lines = new ArrayList<>();
    do {
      line = out.readLine();
      lines.add(line);
    } while (line != null && !line.startsWith("CaptchaAI simulator ready"));
    assertThat(line)
        .as(String.join("\n", lines))
        .isEqualTo(
            "CaptchaAI simulator ready at http://127.0.0.1:"
                + port
                + " key="
                + CaptchaAiSimulator.SANDBOX_KEY
                + " threads=7");
    assertThat(
            new ApiClient("http://127.0.0.1:" + port)
                .resJson(CaptchaAiSimulator.SANDBOX_KEY, "action", "threadsinfo")
                .get("threads")
                .asString())
        .isEqualTo("7");

    process
        .toHandle()
        .destroy(); // SIGTERM, and unlike Process.destroy() keeps our end of stdout open
    assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isIn(0, 143);
    String rest = String.join("\n", out.lines().toList());
    assertThat(rest).contains("stopped");
  }

  private static Process launch(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SimulatorMain.class.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }
}
