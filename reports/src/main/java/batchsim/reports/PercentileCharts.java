package batchsim.reports;

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

  /**
   * Percentile curves of one histogram per queue (beyond the palette, the queues with the most samples
   * and one curve of the others' merged histogram), plus the overall one dashed on top.
   */
  static Figure queueWaits(RunResult r, boolean start) {
    List<String> names = new ArrayList<>();
    List<Histogram> hs = new ArrayList<>();
    for (QueueStats q : r.queues()) {
      names.add(q.name());
      hs.add(start ? q.timeToStart() : q.timeToReservation());
    }
    boolean overall = r.overall() != null && r.queues().size() > 1;
    Histogram all = overall ? (start ? r.overall().timeToStart() : r.overall().timeToReservation()) : null;
    return start
        ? percentileFigure("Time to start, by " + Words.of(r).queue(), "created → " + Words.of(r).started(),
            names, hs, "queue", all)
        : percentileFigure(Words.of(r).waitTitle() + ", by " + Words.of(r).queue(), "created → "
            + Words.of(r).reserved(), names, hs, "queue", all);
  }

  static Figure groupWaits(WorkloadGroups groups, String title, String reserved) {
    List<String> names = new ArrayList<>();
    List<Histogram> hs = new ArrayList<>();
    for (WorkloadGroups.Group g : groups.shown) {
      names.add(g.label);
      hs.add(g.reservation);
    }
    String sub = "created → first " + reserved;
    if (groups.hiddenGroups > 0) {
      sub += "; " + groups.hiddenGroups + " smaller groups not drawn";
    }
    return percentileFigure(title, sub, names, hs, "group", null);
  }

  /** The histograms drawn on their own, then the merged rest (labelled last in {@code names}). */
  private static Palette.Selection select(List<String> names, List<Histogram> hs, String noun) {
    double[] counts = new double[hs.size()];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = hs.get(i) == null ? 0 : hs.get(i).getTotalCount();
    }
    Palette.Selection sel = Palette.top(counts);
    if (!sel.rest().isEmpty()) {
      List<String> shownNames = new ArrayList<>();
      List<Histogram> shown = new ArrayList<>();
      sel.shown().forEach(i -> {
        shownNames.add(names.get(i));
        shown.add(hs.get(i));
      });
      shownNames.add(sel.restLabel(noun));
      shown.add(merged(hs, sel.rest()));
      names.clear();
      names.addAll(shownNames);
      hs.clear();
      hs.addAll(shown);
    }
    return sel;
  }

  /** One histogram of the values of {@code hs} at {@code indices}. */
  static Histogram merged(List<Histogram> hs, List<Integer> indices) {
    Histogram out = new Histogram(3);
    for (int i : indices) {
      if (hs.get(i) != null) {
        out.add(hs.get(i));
      }
    }
    return out;
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
      List<Histogram> hs, String noun, Histogram overall) {
    names = new ArrayList<>(names);
    hs = new ArrayList<>(hs);
    Palette.Selection sel = select(names, hs, noun);
    boolean rest = !sel.rest().isEmpty();
    if (rest) {
      subtitle += "; the " + sel.shown().size() + " " + noun + "s with the most samples, the other "
          + sel.rest().size() + " merged";
    }
    if (overall != null) {
      names.add("all " + noun + "s");
      hs.add(overall);
    }
    double max = 0;
    for (Histogram h : hs) {
      if (h != null && h.getTotalCount() > 0) {
        max = Math.max(max, h.getValueAtPercentile(Axis.xToPercentile(4)));
      }
    }
    SvgChart c = new SvgChart(SvgChart.HALF, 250, Axis.percentile(), Axis.duration(max, 5, "wait"));
    int drawn = 0;
    for (int s = 0; s < hs.size() - (overall != null ? 1 : 0); s++) {
      drawn += hs.get(s) != null && hs.get(s).getTotalCount() > 0 ? 1 : 0;
    }
    c.layered(drawn);
    double[] xs = new double[CURVE_POINTS];
    double[] ps = new double[CURVE_POINTS];
    for (int i = 0; i < CURVE_POINTS; i++) {
      xs[i] = 4.0 * i / (CURVE_POINTS - 1);
      ps[i] = Axis.xToPercentile(xs[i]);
    }
    List<String> empty = new ArrayList<>();
    int colored = sel.shown().size();
    for (int s = 0; s < hs.size(); s++) {
      Histogram h = hs.get(s);
      boolean isOverall = overall != null && s == hs.size() - 1;
      if (h == null || h.getTotalCount() == 0) {
        empty.add(names.get(s));
        continue;
      }
      long[] at = valuesAtPercentiles(h, ps);
      double[] ys = new double[CURVE_POINTS];
      for (int i = 0; i < CURVE_POINTS; i++) {
        ys[i] = at[i];
      }
      String col = isOverall ? Palette.OVERALL : s < colored ? Palette.color(s) : Palette.REST;
      c.line(c.key(names.get(s) + " (n=" + Formats.grouped(h.getTotalCount()) + ")", col,
          isOverall ? "dash" : "line"), xs, ys, isOverall);
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
            p.checkWait()), "curve", null);
  }
}
