package batchsim.core.metrics;

import java.util.List;

/** A gauge vector: per label-value set, a value that is set (or added to). */
public final class GaugeFamily extends ScalarFamily {
  public GaugeFamily(String name, String... labelNames) {
    super(name, labelNames);
  }

  @Override
  public Type type() {
    return Type.GAUGE;
  }

  public void set(double value, String... labelValues) {
    series(labelValues)[0] = value;
  }

  /** The current value of one series, or null when the series does not exist. */
  public Double value(String... labelValues) {
    double[] v = series.get(List.of(labelValues));
    return v == null ? null : v[0];
  }
}
