package com.captchajobs.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class PercentilesTest {

  private static final List<Integer> ONE_TO_TEN = List.of(7, 3, 10, 1, 9, 2, 8, 4, 6, 5);

  @Test
  void thePercentileIsTheValueOfRankPTimesNRoundedUp() {
    assertThat(Percentiles.of(ONE_TO_TEN, 0.5)).isEqualTo(5.0);
    assertThat(Percentiles.of(ONE_TO_TEN, 0.95)).isEqualTo(10.0);
    assertThat(Percentiles.of(ONE_TO_TEN, 0.2)).isEqualTo(2.0);
    assertThat(Percentiles.of(ONE_TO_TEN, 0.21)).isEqualTo(3.0);
    assertThat(Percentiles.of(ONE_TO_TEN, 1.0)).isEqualTo(10.0);
    assertThat(Percentiles.of(ONE_TO_TEN, 0.0)).isEqualTo(1.0);
  }

  @Test
  void aProductJustAboveAWholeNumberByRoundingKeepsItsRank() {
    assertThat(0.07 * 100).isGreaterThan(7.0); // binary floating point
    assertThat(Percentiles.rank(100, 0.07)).isEqualTo(7);
    assertThat(Percentiles.rank(50, 0.14)).isEqualTo(7);
    assertThat(Percentiles.of(ONE_TO_TEN, 0.7)).isEqualTo(7.0);
    assertThat(Percentiles.rank(20, 0.95)).isEqualTo(19);
    assertThat(Percentiles.rank(100, 0.95)).isEqualTo(95);
  }

  @Test
  void thePercentileIsAlwaysOneOfTheValuesNeverInterpolated() {
    List<Double> values = List.of(0.25, -0.5, 4.0, 1.5);
    assertThat(Percentiles.of(values, 0.5)).isEqualTo(0.25);
    assertThat(Percentiles.of(values, 0.6)).isEqualTo(1.5);
    assertThat(Percentiles.of(values, 0.95)).isEqualTo(4.0);
    assertThat(Percentiles.of(List.of(42L), 0.5)).isEqualTo(42.0);
  }

  @Test
  void noValuesHaveNoPercentileAndABadShareIsRefused() {
    assertThat(Percentiles.of(List.<Double>of(), 0.95)).isNaN();
    assertThatThrownBy(() -> Percentiles.of(ONE_TO_TEN, 95)).hasMessageContaining("[0, 1]");
    assertThatThrownBy(() -> Percentiles.of(List.<Double>of(), Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
