package com.captchajobs.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.worker.WorkerApplication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The README's "Running a fleet" commands start on one machine as they stand: no port a command
 * gives a node is another node's default management port, and no two ports are the same.
 */
@Tag("unit")
class ReadmeFleetPortsTest {

  private static final Pattern COMMAND =
      Pattern.compile("java -jar ([a-z-]+)/target/[a-z-]+\\.jar --server\\.port=(\\d+)");
  private static final Pattern DASHBOARD_MANAGEMENT =
      Pattern.compile("NodeDefaults\\.management\\((\\d+)\\)");

  @Test
  void theReadmesFleetCommandsAndEveryNodesDefaultManagementPortAreAllDifferent() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    Map<String, Integer> serverPorts = new TreeMap<>();
    Matcher command = COMMAND.matcher(readme);
    while (command.find()) {
      serverPorts.put(command.group(1), Integer.parseInt(command.group(2)));
    }
    assertThat(serverPorts).containsOnlyKeys("app", "worker", "dashboard-config");

    Matcher dashboard =
        DASHBOARD_MANAGEMENT.matcher(
            Files.readString(
                Path.of(
                    "..",
                    "dashboard-config/src/main/java/com/captchajobs/dashboard/DashboardApplication.java")));
    assertThat(dashboard.find()).isTrue();
    List<Integer> ports = new ArrayList<>(serverPorts.values());
    ports.add(Integer.parseInt((String) AppApplication.defaults().get("management.server.port")));
    ports.add(
        Integer.parseInt((String) WorkerApplication.defaults().get("management.server.port")));
    ports.add(Integer.parseInt(dashboard.group(1)));
    ports.add(8000); // the JobRunr dashboard's default (captchajobs.dashboard.port)

    Set<Integer> distinct = new HashSet<>(ports);
    assertThat(distinct).as("ports " + ports).hasSameSizeAs(ports);
  }
}
