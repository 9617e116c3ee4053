package batchsim.core.world;

import batchsim.core.metrics.TimeSeries;
import java.util.ArrayList;
import java.util.List;

/** Takes the time-series samples: each source's columns side by side, one row per sample. */
final class Sampler {
  private final List<SampleSource> sources;
  private final List<String> columns = new ArrayList<>();
  private final List<Long> times = new ArrayList<>();
  private final List<long[]> rows = new ArrayList<>();

  Sampler(List<SampleSource> sources) {
    this.sources = List.copyOf(sources);
    for (SampleSource s : sources) {
      columns.addAll(s.columns());
    }
  }

  void sample(long now) {
    long[] row = new long[columns.size()];
    int c = 0;
    for (SampleSource s : sources) {
      c = s.sample(row, c);
    }
    times.add(now);
    rows.add(row);
  }

  TimeSeries series() {
    return times.isEmpty() ? TimeSeries.EMPTY : new TimeSeries(List.copyOf(columns), times, rows);
  }
}
