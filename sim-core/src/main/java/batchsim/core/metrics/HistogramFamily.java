package batchsim.core.metrics;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * A histogram vector with fixed upper bounds: per label-value set, cumulative bucket counts, a sum and a
 * count, exposed as {@code _bucket{...,le="…"}} (with {@code le="+Inf"}), {@code _sum} and {@code _count}.
 */
public final class HistogramFamily extends MetricFamily<HistogramFamily.Series> {
  private final double[] bounds;

  public HistogramFamily(String name, double[] bounds, String... labelNames) {
    super(name, labelNames);
    this.bounds = bounds.clone();
  }

  /** The upper bounds, without +Inf. */
  public double[] bounds() {
    return bounds.clone();
  }

  public void observe(double value, String... labelValues) {
    Series s = series(labelValues);
    for (int i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        s.buckets[i]++;
      }
    }
    s.count++;
    s.sum += value;
  }

  /** Observations of one series so far (0 when none). */
  public long count(String... labelValues) {
    Series s = series.get(List.of(labelValues));
    return s == null ? 0 : s.count;
  }

  @Override
  public Type type() {
    return Type.HISTOGRAM;
  }

  @Override
  public void read(SeriesReader reader) {
    for (Map.Entry<List<String>, Series> e : series.entrySet()) {
      Series s = e.getValue();
      reader.histogram(e.getKey(), s.buckets.clone(), s.count, s.sum);
    }
  }

  @Override
  Series create() {
    return new Series(new long[bounds.length]);
  }

  @Override
  void writeTo(SortedMap<String, Double> out) {
    for (Map.Entry<List<String>, Series> e : series.entrySet()) {
      Series s = e.getValue();
      for (int i = 0; i < bounds.length; i++) {
        out.put(seriesName("_bucket", e.getKey(), "le", formatBound(bounds[i])), (double) s.buckets[i]);
      }
      out.put(seriesName("_bucket", e.getKey(), "le", "+Inf"), (double) s.count);
      out.put(seriesName("_sum", e.getKey(), null, null), s.sum);
      out.put(seriesName("_count", e.getKey(), null, null), (double) s.count);
    }
  }

  /**
   * An upper bound as client_golang writes {@code le} (strconv.FormatFloat(f, 'g', -1, 64)) for 1e-4 <= f < 1e6,
   * which holds for every bound Kueue uses: 0.005, 2.5, 40960.
   */
  public static String formatBound(double f) {
    return BigDecimal.valueOf(f).stripTrailingZeros().toPlainString();
  }

  static final class Series {
    final long[] buckets;
    long count;
    double sum;

    Series(long[] buckets) {
      this.buckets = buckets;
    }
  }
}
