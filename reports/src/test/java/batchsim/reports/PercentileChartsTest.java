package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The one-walk percentile curve equals HdrHistogram's own answer at every point. */
class PercentileChartsTest {
  @Test
  void oneWalkMatchesGetValueAtPercentileEverywhere() {
    double[] ps = new double[201];
    for (int i = 0; i < ps.length; i++) {
      ps[i] = Axis.xToPercentile(4.0 * i / (ps.length - 1));
    }
    for (int seed = 0; seed < 300; seed++) {
      Random rnd = new Random(seed);
      Histogram h = new Histogram(3);
      int n = 1 + rnd.nextInt(seed % 3 == 0 ? 5 : 20_000);
      for (int i = 0; i < n; i++) {
        h.recordValue(rnd.nextInt(4) == 0 ? rnd.nextInt(10) : (long) Math.exp(rnd.nextDouble() * 20));
      }
      long[] got = PercentileCharts.valuesAtPercentiles(h, ps);
      for (int i = 0; i < ps.length; i++) {
        assertEquals(h.getValueAtPercentile(ps[i]), got[i], "seed " + seed + " at p" + ps[i]);
      }
    }
  }
}
