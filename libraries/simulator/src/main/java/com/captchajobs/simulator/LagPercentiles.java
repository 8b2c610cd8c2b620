package com.captchajobs.simulator;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Percentiles of fetch lags by nearest rank (the value of rank ⌈p·n⌉, the definition used
 * throughout the project), computed by HdrHistogram with 4 significant digits: exact to the
 * millisecond up to 32.7 s, within 0.01 % above. A class of its own so that statistics without lags
 * never load HdrHistogram.
 */
final class LagPercentiles {
  private LagPercentiles() {}

  /**
   * The percentiles ps (each in 0..1) of the lags (milliseconds, any order), in seconds; 0 each
   * when there are no lags.
   */
  static double[] seconds(List<Long> millis, double... ps) {
    double[] out = new double[ps.length];
    if (millis.isEmpty()) {
      return out;
    }
    Histogram histogram = new Histogram(4);
    millis.forEach(m -> histogram.recordValue(Math.max(0, m)));
    for (int i = 0; i < ps.length; i++) {
      out[i] = histogram.getValueAtPercentile(ps[i] * 100) / 1000.0;
    }
    return out;
  }
}
