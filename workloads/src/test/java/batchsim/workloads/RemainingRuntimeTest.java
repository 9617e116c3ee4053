package batchsim.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** What is left of a runtime known to exceed the time a job has already run (an imported running workload). */
class RemainingRuntimeTest {
  @Test
  void normalCdfAndQuantileMatchTheTables() {
    assertEquals(0.975, Normal.cdf(1.959964), 1e-6);
    assertEquals(0.5, Normal.cdf(0), 1e-7);
    assertEquals(0.0013499, Normal.cdf(-3), 1e-6);
    assertEquals(1.959964, Normal.quantile(0.975), 1e-5);
    assertEquals(-2.326348, Normal.quantile(0.01), 1e-5);
    assertEquals(0.0, Normal.quantile(0.5), 1e-9);
    assertEquals(-4.264891, Normal.quantile(1e-5), 1e-4); // the tail branch
  }

  /** Having run exactly its median, a log-normal job's total runtime has the distribution's 75th percentile as median. */
  @Test
  void logNormalConditionedOnItsMedianHasTheUpperQuartileAsMedian() {
    Distribution.LogNormal d = new Distribution.LogNormal(3_600_000, 6 * 3_600_000);
    SplittableRandom r = new SplittableRandom(7);
    long[] totals = new long[20_001];
    for (int i = 0; i < totals.length; i++) {
      long left = d.remainingAfter(r, 3_600_000);
      assertTrue(left >= 0);
      totals[i] = 3_600_000 + left;
    }
    Arrays.sort(totals);
    double expected = 3_600_000 * Math.exp(d.sigma() * 0.6744898);
    assertEquals(expected, totals[totals.length / 2], expected * 0.02);
  }

  @Test
  void eachDistributionLeavesWhatItMust() {
    SplittableRandom r = new SplittableRandom(1);
    assertEquals(600_000, new Distribution.Constant(3_600_000).remainingAfter(r, 3_000_000));
    assertEquals(0, new Distribution.Constant(3_600_000).remainingAfter(r, 4_000_000), "a fixed runtime already passed");
    for (int i = 0; i < 1000; i++) {
      long u = new Distribution.Uniform(1_000, 5_000).remainingAfter(r, 4_000);
      assertTrue(u >= 0 && u <= 1_000, "uniform on [4000, 5000] less the 4000 run: " + u);
    }
    assertEquals(0, new Distribution.Uniform(1_000, 5_000).remainingAfter(r, 9_000));
    // memoryless: the same draws as a fresh sample
    assertEquals(new Distribution.Exponential(60_000).sample(new SplittableRandom(3)),
        new Distribution.Exponential(60_000).remainingAfter(new SplittableRandom(3), 10_000_000));
    // far beyond the p99 the log-normal still leaves a finite, non-negative remainder
    long far = new Distribution.LogNormal(60_000, 120_000).remainingAfter(r, 100 * 60_000);
    assertTrue(far >= 0 && far < 100 * 60_000, String.valueOf(far));
  }
}
