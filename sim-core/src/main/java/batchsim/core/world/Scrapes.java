package batchsim.core.world;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;

/**
 * Reads the engine's metric model at 0, every interval after it and at the end of the run, as Prometheus scrapes
 * Kueue at intervals. No event is scheduled for it: the world asks before taking each event, so a run with
 * scrapes processes exactly the events of a run without (same outputs). A scrape at an instant sees what the
 * time-series sample at that instant sees: everything up to and including the {@link EventKind#SAMPLE}s.
 */
final class Scrapes {
  private final EventLoop loop;
  private final AdmissionEngine engine;
  private final long intervalMs;
  private final MetricsSink sink;
  private long next;
  private long last = -1;

  Scrapes(EventLoop loop, AdmissionEngine engine, long intervalMs, MetricsSink sink) {
    if (intervalMs <= 0) {
      throw new IllegalArgumentException("scrape interval must be positive: " + intervalMs + "ms");
    }
    this.loop = loop;
    this.engine = engine;
    this.intervalMs = intervalMs;
    this.sink = sink;
  }

  /** Takes the scrapes due before {@code e} runs ({@code e} at most the horizon, or null: none). */
  void before(Event e) {
    while (e != null && (next < e.time() || next == e.time() && e.kind().compareTo(EventKind.SAMPLE) > 0)) {
      take(next);
    }
  }

  /** Takes the scrapes left up to {@code end}, and one at {@code end}. */
  void end(long end) {
    while (next <= end) {
      take(next);
    }
    if (last < end) {
      take(end);
    }
  }

  private void take(long t) {
    if (sink.full()) {
      next = Long.MAX_VALUE;
      last = Long.MAX_VALUE;
      return;
    }
    loop.advanceTo(t); // no event runs in between: the clock reads the scrape's time
    sink.scrape(t, engine.metricFamilies());
    last = t;
    next = t + intervalMs;
  }
}
