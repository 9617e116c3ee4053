package batchsim.core.metrics;

import java.util.List;

/** A counter vector: per label-value set, a count that only goes up. */
public final class CounterFamily extends ScalarFamily {
  public CounterFamily(String name, String... labelNames) {
    super(name, labelNames);
  }

  @Override
  public Type type() {
    return Type.COUNTER;
  }

  public void inc(String... labelValues) {
    series(labelValues)[0]++;
  }

  /** The current value of one series, 0 when it was never incremented. */
  public double value(String... labelValues) {
    double[] v = series.get(List.of(labelValues));
    return v == null ? 0 : v[0];
  }

  /** The sum over every series (e.g. every reason). */
  public double total() {
    double t = 0;
    for (double[] v : series.values()) {
      t += v[0];
    }
    return t;
  }
}
