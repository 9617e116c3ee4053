package batchsim.reports;

import java.util.Arrays;

/**
 * Deterministic reduction of a long series to a bounded number of points for drawing. The interior is
 * split into equal index buckets and each bucket keeps its minimum and its maximum (in index order), so
 * peaks and troughs survive however many samples a run took; the first and last points always stay.
 */
final class Downsample {
  /** Points per line; a chart stays readable and a 1M-workload run's page stays small. */
  static final int MAX_POINTS = 1000;

  private Downsample() {}

  /** Indices into {@code y} to draw, ascending, at most {@code max(maxPoints, 4)} of them. */
  static int[] minMax(double[] y, int maxPoints) {
    int n = y.length;
    if (n <= Math.max(maxPoints, 4)) {
      int[] all = new int[n];
      Arrays.setAll(all, i -> i);
      return all;
    }
    int buckets = (Math.max(maxPoints, 4) - 2) / 2;
    int interior = n - 2;
    int[] out = new int[2 + 2 * buckets];
    int k = 0;
    out[k++] = 0;
    for (int b = 0; b < buckets; b++) {
      // Integer bucket bounds over the interior indices 1..n-2; every index lands in exactly one bucket.
      int from = 1 + (int) ((long) b * interior / buckets);
      int to = 1 + (int) ((long) (b + 1) * interior / buckets);
      if (from >= to) {
        continue;
      }
      int lo = from;
      int hi = from;
      for (int i = from + 1; i < to; i++) {
        if (y[i] < y[lo]) {
          lo = i;
        }
        if (y[i] > y[hi]) {
          hi = i;
        }
      }
      out[k++] = Math.min(lo, hi);
      if (lo != hi) {
        out[k++] = Math.max(lo, hi);
      }
    }
    out[k++] = n - 1;
    return Arrays.copyOf(out, k);
  }
}
