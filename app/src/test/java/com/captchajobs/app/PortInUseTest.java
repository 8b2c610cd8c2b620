package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Nodes on one machine: a taken port is reported with the property that set it. */
@ExtendWith(OutputCaptureExtension.class)
class PortInUseTest {

  @Test
  void aTakenManagementPortIsReportedNamingManagementServerPort(CapturedOutput output)
      throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      assertThatThrownBy(
              () ->
                  AppApplication.builder()
                      .properties(
                          Map.of(
                              "server.port",
                              "0",
                              "management.server.port",
                              String.valueOf(taken.getLocalPort())))
                      .run()
                      .close())
          .hasStackTraceContaining("Port " + taken.getLocalPort());
      assertThat(output.getOut() + output.getErr())
          .contains("Port " + taken.getLocalPort() + " is already in use (management.server.port)")
          .contains("Set management.server.port to a free port");
    }
  }

  @Test
  void aTakenServerPortIsReportedNamingServerPort(CapturedOutput output) throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      assertThatThrownBy(
              () ->
                  AppApplication.builder()
                      .properties(
                          Map.of(
                              "server.port",
                              String.valueOf(taken.getLocalPort()),
                              "management.server.port",
                              "0"))
                      .run()
                      .close())
          .isNotNull();
      assertThat(output.getOut() + output.getErr())
          .contains("Port " + taken.getLocalPort() + " is already in use (server.port)")
          .contains("Set server.port to a free port");
    }
  }
}
