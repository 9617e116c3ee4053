package batchsim.reports;

import static batchsim.reports.ReportCharts.EVICTED_COLOR;
import static batchsim.reports.ReportCharts.PREEMPTED_COLOR;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.model.Durations;
import batchsim.reports.ReportCharts.Figure;
import java.util.List;

/** The Preemption section's timeline: evictions per bucket of whole sample intervals, stacked by cause. */
final class EvictionChart {
  private EvictionChart() {}

  /**
   * Evictions and preemptions on a timeline, from the differences of the cumulative
   * {@code evicted:<queue>} and {@code preempted:<queue>} columns between samples. An eviction seen at
   * sample i happened in (t[i-1], t[i]]; buckets are whole sample intervals, so it lands in the right
   * one.
   */
  static Figure of(ReportCharts charts, RunResult r) {
    TimeSeries ts = r.timeSeries();
    List<Integer> ev = charts.columnsOf("evicted");
    List<Integer> pr = charts.columnsOf("preempted");
    List<Long> t = ts.timesMs();
    double span = Math.max(1, charts.spanMs());
    long step = Axis.durationStep(span, 60);
    long interval = t.size() > 1 ? t.get(1) - t.get(0) : 0;
    if (interval > 0) {
      step = (step + interval - 1) / interval * interval;
    }
    int buckets = (int) Math.max(1, (long) Math.ceil(span / step));
    long[] preempted = new long[buckets];
    long[] other = new long[buckets];
    long lastE = 0;
    long lastP = 0;
    for (int i = 0; i < t.size(); i++) {
      long[] row = ts.rows().get(i);
      long e = 0;
      long p = 0;
      for (int j : ev) {
        e += row[j];
      }
      for (int j : pr) {
        p += row[j];
      }
      long de = e - lastE;
      long dp = p - lastP;
      lastE = e;
      lastP = p;
      if (de == 0 && dp == 0) {
        continue;
      }
      int b = (int) Math.min(buckets - 1, Math.max(0, t.get(i) - 1) / step);
      preempted[b] += dp;
      other[b] += Math.max(0, de - dp);
    }
    long max = 0;
    for (int b = 0; b < buckets; b++) {
      max = Math.max(max, preempted[b] + other[b]);
    }
    Axis x = Axis.time((double) buckets * step, 12);
    SvgChart c = new SvgChart(SvgChart.WIDE, 240, x, Axis.count(max, 4, "evictions"));
    int pk = c.key("preemptions", PREEMPTED_COLOR, "bar");
    int ok = c.key("other evictions", EVICTED_COLOR, "bar");
    for (int b = 0; b < buckets; b++) {
      if (preempted[b] + other[b] == 0) {
        continue;
      }
      long from = b * step;
      String when = Durations.format(from) + "–" + Durations.format(from + step);
      String tip = when + ": " + preempted[b] + " preemptions, " + other[b] + " other evictions";
      if (preempted[b] > 0) {
        c.bar(pk, from, from + step, 0, preempted[b], tip);
      }
      if (other[b] > 0) {
        c.bar(ok, from, from + step, preempted[b], preempted[b] + other[b], tip);
      }
    }
    String sub = "from the sampled cumulative counts; bucket " + Durations.format(step);
    long late = r.overall() == null ? 0 : r.overall().evicted() - lastE;
    if (late > 0) {
      sub += "; " + Formats.grouped(late) + " after the last sample not shown";
    }
    return new Figure(c, "Evictions over time", sub);
  }
}
