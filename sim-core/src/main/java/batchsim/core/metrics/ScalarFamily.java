package batchsim.core.metrics;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/** A family whose series each hold one number (counters and gauges). */
abstract sealed class ScalarFamily extends MetricFamily<double[]> permits CounterFamily, GaugeFamily {
  ScalarFamily(String name, String... labelNames) {
    super(name, labelNames);
  }

  @Override
  final double[] create() {
    return new double[1];
  }

  @Override
  public final void read(SeriesReader reader) {
    for (Map.Entry<List<String>, double[]> e : series.entrySet()) {
      reader.scalar(e.getKey(), e.getValue()[0]);
    }
  }

  @Override
  final void writeTo(SortedMap<String, Double> out) {
    for (Map.Entry<List<String>, double[]> e : series.entrySet()) {
      out.put(seriesName("", e.getKey(), null, null), e.getValue()[0]);
    }
  }
}
