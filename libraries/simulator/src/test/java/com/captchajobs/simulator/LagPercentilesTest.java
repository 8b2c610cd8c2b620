package com.captchajobs.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class LagPercentilesTest {

  @Test
  void fetchLagPercentilesAreByNearestRankExactToTheMillisecond() {
    List<Long> millis = new ArrayList<>();
    // up to 23.45 s: beyond what HdrHistogram keeps in 1 ms steps with its usual 3 digits
    for (long i = 10; i >= 1; i--) {
      millis.add(i * 2_345);
    }
    assertThat(LagPercentiles.seconds(millis, 0.5, 0.7, 0.95, 0.21, 1.0))
        .containsExactly(11.725, 16.415, 23.45, 7.035, 23.45);
  }

  @Test
  void noLagsHaveZeroPercentiles() {
    assertThat(LagPercentiles.seconds(List.of(), 0.5, 0.95)).containsExactly(0.0, 0.0);
  }
}
