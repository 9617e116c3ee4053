package batchsim.reports;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WaitingStats;
import batchsim.core.model.Durations;
import java.util.ArrayList;
import java.util.List;

/**
 * report.html's "Why it waited": per ClusterQueue, the workload-hours spent waiting by cause and their share,
 * who held each quota the queue waited on, and the overall split over time. Shown when the run has a split
 * (Kueue) with some waiting.
 */
final class WaitingSection {
  private final WaitingStats w;
  private final ReportBody body;

  WaitingSection(RunResult r, ReportBody body) {
    this.w = r.waiting();
    this.body = body;
  }

  void write() {
    if (w == null || w.overall().totalMs() == 0) {
      return;
    }
    body.optionalSection("waiting", "Why it waited",
        "Workload-hours spent waiting, from creation (or a lost reservation) until the pods run, split by the "
        + "cause Kueue's conditions give; who used the quota a queue waited on meanwhile.");
    body.figure(overTime());
    for (WaitingStats.Queue q : w.queues()) {
      if (q.totalMs() == 0) {
        continue;
      }
      body.html().append("<h3>").append(Html.esc(q.clusterQueue())).append(" · ")
          .append(Formats.humanDuration(q.totalMs())).append(" waited</h3>\n");
      HtmlTable t = new HtmlTable(1, "Cause", "Workload-hours", "Share");
      for (WaitingStats.Cause c : q.causes()) {
        t.row(Html.esc(c.cause()), hours(c.ms()), Formats.percent((double) c.ms() / q.totalMs()));
      }
      t.total("total", hours(q.totalMs()), Formats.percent(1));
      body.table(t);
      for (WaitingStats.QuotaBlock b : q.quotaBlocks()) {
        body.html().append("<p class=\"note\">").append(Html.esc(capitalized(b.describe(q.clusterQueue())))).append("</p>\n");
      }
    }
  }

  /** Stacked bars: per bucket, the mean number of workloads waiting on each cause (all queues). */
  private ReportCharts.Figure overTime() {
    WaitingStats.Queue all = w.overall();
    int buckets = all.causes().get(0).byBucket().length;
    double step = w.bucketMs();
    double max = 0;
    for (int b = 0; b < buckets; b++) {
      long sum = 0;
      for (WaitingStats.Cause c : all.causes()) {
        sum += c.byBucket()[b];
      }
      max = Math.max(max, sum / step);
    }
    SvgChart chart = new SvgChart(SvgChart.WIDE, 240, Axis.time(buckets * step, 12),
        Axis.count(Math.max(1, max), 4, "workloads waiting"));
    // The causes that waited longest get their own colour; the others share one grey band (Palette).
    List<WaitingStats.Cause> causes = all.causes();
    double[] relevance = new double[causes.size()];
    for (int i = 0; i < relevance.length; i++) {
      for (long v : causes.get(i).byBucket()) {
        relevance[i] += v;
      }
    }
    Palette.Selection sel = Palette.top(relevance);
    List<String> names = new ArrayList<>();
    List<long[]> bands = new ArrayList<>();
    for (int i : sel.shown()) {
      names.add(causes.get(i).cause());
      bands.add(causes.get(i).byBucket());
    }
    if (!sel.rest().isEmpty()) {
      long[] rest = new long[buckets];
      sel.rest().forEach(i -> {
        for (int b = 0; b < buckets; b++) {
          rest[b] += causes.get(i).byBucket()[b];
        }
      });
      names.add(sel.restLabel("cause"));
      bands.add(rest);
    }
    int[] keys = new int[names.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = chart.key(names.get(i), i < sel.shown().size() ? Palette.color(i) : Palette.REST, "bar");
    }
    for (int b = 0; b < buckets; b++) {
      double from = b * step;
      double y = 0;
      for (int i = 0; i < keys.length; i++) {
        double mean = bands.get(i)[b] / step;
        if (mean > 0) {
          chart.bar(keys[i], from, from + step, y, y + mean, Durations.format((long) from) + "–"
              + Durations.format((long) (from + step)) + ": " + Formats.fixed(mean, 2) + " waiting on " + names.get(i));
          y += mean;
        }
      }
    }
    return new ReportCharts.Figure(chart, "Why workloads waited, over time",
        "mean workloads waiting per cause, all ClusterQueues; bucket " + Durations.format(w.bucketMs()));
  }

  private static String capitalized(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1) + ".";
  }

  private static String hours(long ms) {
    return Formats.fixed(ms / 3_600_000.0, 2);
  }
}
