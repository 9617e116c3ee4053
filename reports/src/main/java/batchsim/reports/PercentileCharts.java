package batchsim.reports;

import static batchsim.reports.ReportCharts.OVERALL_COLOR;
import static batchsim.reports.ReportCharts.PALETTE;

import batchsim.core.metrics.ProvisioningStats;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.RunResult;
import batchsim.reports.ReportCharts.Figure;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Percentile curves of wait-time histograms; they need no time series. */
final class PercentileCharts {
  /** Points per percentile curve: x = 0, 0.02, ..., 4 on the -log10(1 - p) scale. */
  private static final int CURVE_POINTS = 201;

  private PercentileCharts() {}

  /** Percentile curves of one histogram per queue, plus the overall one dashed. */
  static Figure queueWaits(RunResult r, boolean start) {
    List<String> names = new ArrayList<>();
    List<Histogram> hs = new ArrayList<>();
    for (QueueStats q : r.queues()) {
      names.add(q.name());
      hs.add(start ? q.timeToStart() : q.timeToReservation());
    }
    if (r.overall() != null && r.queues().size() > 1) {
      names.add("all queues");
      hs.add(start ? r.overall().timeToStart() : r.overall().timeToReservation());
    }
    return start
        ? percentileFigure("Time to start, by ClusterQueue", "created → all pods running", names, hs,
            r.queues().size() > 1)
        : percentileFigure("Time to reservation, by ClusterQueue", "created → quota reserved", names,
            hs, r.queues().size() > 1);
  }

  static Figure groupWaits(WorkloadGroups groups, String title) {
    List<String> names = new ArrayList<>();
    List<Histogram> hs = new ArrayList<>();
    for (WorkloadGroups.Group g : groups.shown) {
      names.add(g.label);
      hs.add(g.reservation);
    }
    String sub = "created → first quota reserved";
    if (groups.hiddenGroups > 0) {
      sub += "; " + groups.hiddenGroups + " smaller groups not drawn";
    }
    return percentileFigure(title, sub, names, hs, false);
  }

  /**
   * {@code h.getValueAtPercentile(p)} for every p of {@code ps} (ascending), in one walk over the recorded
   * values instead of one walk from the start per percentile: the same count target (HdrHistogram rounds
   * the requested count up, just below the percentile), the same bucket, its highest equivalent value.
   */
  static long[] valuesAtPercentiles(Histogram h, double[] ps) {
    long[] out = new long[ps.length];
    long total = h.getTotalCount();
    java.util.Iterator<org.HdrHistogram.HistogramIterationValue> it = h.recordedValues().iterator();
    long cumulative = 0;
    long value = 0;
    for (int k = 0; k < ps.length; k++) {
      if (ps[k] == 0.0) {
        out[k] = h.getValueAtPercentile(0.0); // the lowest equivalent value: its own rule
        continue;
      }
      double requested = Math.min(Math.max(Math.nextAfter(ps[k], Double.NEGATIVE_INFINITY), 0.0D), 100.0D);
      long target = Math.max(1, (long) Math.ceil((requested * total) / 100.0D));
      while (cumulative < target && it.hasNext()) {
        org.HdrHistogram.HistogramIterationValue v = it.next();
        cumulative = v.getTotalCountToThisValue();
        value = v.getValueIteratedTo();
      }
      out[k] = cumulative >= target ? value : 0;
    }
    return out;
  }

  private static Figure percentileFigure(String title, String subtitle, List<String> names,
      List<Histogram> hs, boolean lastIsOverall) {
    double max = 0;
    for (Histogram h : hs) {
      if (h != null && h.getTotalCount() > 0) {
        max = Math.max(max, h.getValueAtPercentile(Axis.xToPercentile(4)));
      }
    }
    SvgChart c = new SvgChart(SvgChart.HALF, 250, Axis.percentile(), Axis.duration(max, 5, "wait"));
    double[] xs = new double[CURVE_POINTS];
    double[] ps = new double[CURVE_POINTS];
    for (int i = 0; i < CURVE_POINTS; i++) {
      xs[i] = 4.0 * i / (CURVE_POINTS - 1);
      ps[i] = Axis.xToPercentile(xs[i]);
    }
    List<String> empty = new ArrayList<>();
    int color = 0;
    for (int s = 0; s < hs.size(); s++) {
      Histogram h = hs.get(s);
      boolean overall = lastIsOverall && s == hs.size() - 1;
      if (h == null || h.getTotalCount() == 0) {
        empty.add(names.get(s));
        continue;
      }
      long[] at = valuesAtPercentiles(h, ps);
      double[] ys = new double[CURVE_POINTS];
      for (int i = 0; i < CURVE_POINTS; i++) {
        ys[i] = at[i];
      }
      String col = overall ? OVERALL_COLOR : PALETTE[color++ % PALETTE.length];
      c.line(c.key(names.get(s) + " (n=" + Formats.grouped(h.getTotalCount()) + ")", col,
          overall ? "dash" : "line"), xs, ys, overall);
    }
    if (!empty.isEmpty()) {
      subtitle += "; no samples: " + String.join(", ", empty);
    }
    return new Figure(c, title, subtitle);
  }

  /** Percentile curves of the ProvisioningRequest latency and the admission-check wait. */
  static Figure provisioning(ProvisioningStats p) {
    return percentileFigure("Provisioning", "request → Provisioned; quota reserved → Admitted",
        List.of("request → Provisioned", "check wait"), java.util.Arrays.asList(p.latency(),
            p.checkWait()), false);
  }
}
