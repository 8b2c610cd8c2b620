package com.captchajobs.core.stats;

import java.util.Collection;
import java.util.List;

/**
 * The one percentile of the project: the <em>nearest rank</em>. The p-th percentile (0 ≤ p ≤ 1) of
 * n values is the value of rank ⌈p·n⌉ (at least 1) in ascending order: the smallest value such that
 * at least a share p of the values are less than or equal to it. It is always one of the values
 * (never interpolated), the 1.0 percentile is the maximum and, for one value, every percentile is
 * that value.
 *
 * <p>The engine's learned first-poll wait, the bench's figures and the fleet tests compute their
 * percentiles here. The operator's batch summary asks PostgreSQL for the same definition ({@code
 * percentile_disc}), and the simulator, which depends on nothing of ours, uses HdrHistogram's
 * {@code getValueAtPercentile}, which also rounds the rank up.
 */
public final class Percentiles {

  private Percentiles() {}

  /**
   * The rank (1-based, in ascending order) of the p-th percentile of n values: ⌈p·n⌉, at least 1.
   * The product is taken one ulp below p so that a product that lands just above a whole number by
   * rounding (0.07 × 100 is 7.000000000000001 in binary floating point) keeps its rank (7, not 8).
   *
   * @throws IllegalArgumentException when n is not positive or p is outside [0, 1]
   */
  public static int rank(int n, double p) {
    if (n < 1) {
      throw new IllegalArgumentException("no values");
    }
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("percentile must be in [0, 1], got " + p);
    }
    long rank = (long) Math.ceil(Math.nextDown(p) * n);
    return (int) Math.max(1, Math.min(n, rank));
  }

  /**
   * The p-th percentile (0 ≤ p ≤ 1, e.g. 0.95) of the values, in any order, by nearest rank; NaN
   * when there are none.
   */
  public static double of(Collection<? extends Number> values, double p) {
    if (values.isEmpty()) {
      rank(1, p); // still reject a bad p
      return Double.NaN;
    }
    List<Double> sorted = values.stream().map(Number::doubleValue).sorted().toList();
    return sorted.get(rank(sorted.size(), p) - 1);
  }
}
