package com.captchajobs.worker.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shipped Grafana dashboard as a file: Grafana keys a panel's links, its "view" and its edits
 * by the panel's id, so two panels with one id open each other's view.
 */
@Tag("unit")
class GrafanaDashboardTest {

  @Test
  void everyPanelOfTheDashboardHasAnIdOfItsOwn() throws IOException {
    JsonNode dashboard =
        JsonMapper.builder()
            .build()
            .readTree(Files.readString(DashboardAndAlertMetricsTest.DASHBOARD));
    List<Integer> ids = new ArrayList<>();
    for (JsonNode panel : dashboard.get("panels")) {
      ids.add(panel.get("id").asInt());
    }
    assertThat(ids).hasSizeGreaterThanOrEqualTo(15).doesNotHaveDuplicates();
  }
}
