package batchsim.core.world;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.metrics.TimeSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Takes the time-series samples every interval from time 0, each source's columns side by side, while anything
 * else is still to happen (a run without horizon must end).
 */
final class Sampler implements EventTarget {
  private final EventLoop loop;
  private final long intervalMs;
  private final List<SampleSource> sources;
  private final List<String> columns = new ArrayList<>();
  private final List<Long> times = new ArrayList<>();
  private final List<long[]> rows = new ArrayList<>();
  private final LongConsumer alsoAtSample;

  /** {@code alsoAtSample} runs at each sample time, after the columns are taken (the metric snapshots). */
  Sampler(EventLoop loop, long intervalMs, List<SampleSource> sources, LongConsumer alsoAtSample) {
    this.loop = loop;
    this.alsoAtSample = alsoAtSample;
    this.intervalMs = intervalMs;
    this.sources = List.copyOf(sources);
    for (SampleSource s : sources) {
      columns.addAll(s.columns());
    }
  }

  void start() {
    if (intervalMs > 0) {
      loop.schedule(0, EventKind.SAMPLE, this, null);
    }
  }

  @Override
  public void handle(Event e) {
    sample(loop.now());
    if (loop.pending() > 0) {
      loop.schedule(loop.now() + intervalMs, EventKind.SAMPLE, this, null);
    }
  }

  private void sample(long now) {
    long[] row = new long[columns.size()];
    int c = 0;
    for (SampleSource s : sources) {
      c = s.sample(row, c);
    }
    times.add(now);
    rows.add(row);
    alsoAtSample.accept(now);
  }

  TimeSeries series() {
    return times.isEmpty() ? TimeSeries.EMPTY : new TimeSeries(List.copyOf(columns), times, rows);
  }
}
