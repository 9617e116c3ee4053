package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DownsampleTest {
  @Test
  void shortSeriesStayWhole() {
    assertArrayEquals(new int[] {0, 1, 2}, Downsample.minMax(new double[] {5, 1, 3}, 1000));
    assertArrayEquals(new int[0], Downsample.minMax(new double[0], 1000));
  }

  @Test
  void boundedSortedAndKeepsPeaksTroughsAndEnds() {
    SplittableRandom rnd = new SplittableRandom(7);
    double[] y = new double[1_000_003];
    for (int i = 0; i < y.length; i++) {
      y[i] = 100 + rnd.nextInt(10);
    }
    y[777_777] = 5_000; // a one-sample peak
    y[333_333] = -5;    // and a one-sample trough
    int[] idx = Downsample.minMax(y, 1000);
    assertTrue(idx.length <= 1000, "points " + idx.length);
    assertTrue(idx.length >= 900, "uses its budget: " + idx.length);
    for (int k = 1; k < idx.length; k++) {
      assertTrue(idx[k - 1] < idx[k], "ascending, no duplicates");
    }
    assertEquals(0, idx[0]);
    assertEquals(y.length - 1, idx[idx.length - 1]);
    assertTrue(Arrays.stream(idx).anyMatch(i -> i == 777_777), "peak kept");
    assertTrue(Arrays.stream(idx).anyMatch(i -> i == 333_333), "trough kept");
    assertArrayEquals(idx, Downsample.minMax(y, 1000), "deterministic");
  }

  @Test
  void everyBucketKeepsItsMaximum() {
    double[] y = new double[10_000];
    for (int i = 0; i < y.length; i++) {
      y[i] = i % 100 == 42 ? 1_000 + i : 0; // a peak every 100 samples
    }
    int[] idx = Downsample.minMax(y, 202); // 100 buckets of ~100 samples
    long peaks = Arrays.stream(idx).filter(i -> i % 100 == 42).count();
    assertEquals(100, peaks);
  }

  @Test
  void columnsInOnePassEqualColumnByColumn() {
    SplittableRandom rnd = new SplittableRandom(3);
    List<long[]> rows = new ArrayList<>();
    for (int i = 0; i < 54_321; i++) {
      rows.add(new long[] {rnd.nextInt(100), i % 1_000, 7}); // noise, saw, flat
    }
    int[][] all = Downsample.minMaxColumns(rows, 3, 500);
    for (int j = 0; j < 3; j++) {
      double[] y = new double[rows.size()];
      for (int i = 0; i < y.length; i++) {
        y[i] = rows.get(i)[j];
      }
      assertArrayEquals(Downsample.minMax(y, 500), all[j], "column " + j);
    }
    assertEquals(2 + 249, all[2].length, "a flat column keeps one point per bucket");
  }
}
