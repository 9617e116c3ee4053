package batchsim.reports;

import java.util.Arrays;
import java.util.List;

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
      return identity(n);
    }
    Buckets b = new Buckets(n, maxPoints, 1);
    for (int i = 1; i < n - 1; i++) {
      b.row(i);
      b.add(0, y[i]);
    }
    return b.indices(0);
  }

  /**
   * {@link #minMax} of every column of a row-major table at once, in one pass over the rows (reading
   * a column at a time would miss the cache on every row). Returns indices per column.
   */
  static int[][] minMaxColumns(List<long[]> rows, int columns, int maxPoints) {
    int n = rows.size();
    int[][] out = new int[columns][];
    if (n <= Math.max(maxPoints, 4)) {
      Arrays.setAll(out, j -> identity(n));
      return out;
    }
    Buckets b = new Buckets(n, maxPoints, columns);
    for (int i = 1; i < n - 1; i++) {
      long[] row = rows.get(i);
      b.row(i);
      for (int j = 0; j < columns; j++) {
        b.add(j, row[j]);
      }
    }
    Arrays.setAll(out, b::indices);
    return out;
  }

  private static int[] identity(int n) {
    int[] all = new int[n];
    Arrays.setAll(all, i -> i);
    return all;
  }

  /**
   * Per-column minimum and maximum of equal index buckets over the interior 1..n-2, stored bucket-major
   * so that one row touches one contiguous stretch. The first index wins ties, and rows arrive in
   * ascending order, so the result equals a column-by-column scan.
   */
  private static final class Buckets {
    private final int n;
    private final int buckets;
    private final int columns;
    private final int[] lo;
    private final int[] hi;
    private final double[] loV;
    private final double[] hiV;
    private int bucket = -1;
    private int nextStart = 1;
    private int current;
    private boolean fresh;

    Buckets(int n, int maxPoints, int columns) {
      this.n = n;
      this.buckets = (Math.max(maxPoints, 4) - 2) / 2;
      this.columns = columns;
      lo = new int[buckets * columns];
      hi = new int[buckets * columns];
      loV = new double[buckets * columns];
      hiV = new double[buckets * columns];
      Arrays.fill(lo, -1);
    }

    /**
     * Moves to interior index i (ascending); bucket b holds indices
     * [1 + b*(n-2)/B, 1 + (b+1)*(n-2)/B).
     */
    void row(int i) {
      current = i;
      fresh = false;
      while (i >= nextStart) {
        bucket++;
        nextStart = 1 + (int) ((long) (bucket + 1) * (n - 2) / buckets);
        fresh = true;
      }
    }

    void add(int column, double v) {
      int k = bucket * columns + column;
      if (fresh) {
        lo[k] = current;
        hi[k] = current;
        loV[k] = v;
        hiV[k] = v;
        return;
      }
      if (v < loV[k]) {
        lo[k] = current;
        loV[k] = v;
      }
      if (v > hiV[k]) {
        hi[k] = current;
        hiV[k] = v;
      }
    }

    int[] indices(int column) {
      int[] out = new int[2 + 2 * buckets];
      int k = 0;
      out[k++] = 0;
      for (int b = 0; b < buckets; b++) {
        int l = lo[b * columns + column];
        if (l < 0) {
          continue; // an empty bucket
        }
        int h = hi[b * columns + column];
        out[k++] = Math.min(l, h);
        if (l != h) {
          out[k++] = Math.max(l, h);
        }
      }
      out[k++] = n - 1;
      return Arrays.copyOf(out, k);
    }
  }
}
