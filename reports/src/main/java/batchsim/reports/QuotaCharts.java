package batchsim.reports;

import static batchsim.reports.ReportCharts.BORROWED_COLOR;
import static batchsim.reports.ReportCharts.NOMINAL_COLOR;
import static batchsim.reports.ReportCharts.USED_COLOR;

import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.reports.ReportCharts.Figure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The quota usage charts: used against nominal per ClusterQueue, flavor and resource. */
final class QuotaCharts {
  private QuotaCharts() {}

  /**
   * Quota used over time against nominal for each ClusterQueue, flavor and resource that has quota or
   * usage; the part above nominal (borrowed from the cohort) is shaded separately.
   */
  static Map<String, List<Figure>> of(RunResult r, ReportCharts charts) {
    TimeSeries ts = r.timeSeries();
    Map<String, List<Figure>> out = new LinkedHashMap<>();
    Words w = Words.of(r);
    for (QueueUsageStat u : r.queueUsage()) {
      int col = ts.column("used:" + u.clusterQueue() + ":" + u.flavor() + ":" + u.resource());
      if (col < 0 || u.peakUsage() == 0) {
        continue; // unused quota is in the table; a flat line would only take space
      }
      String res = u.resource();
      double[][] xy = charts.series(col);
      double[] used = xy[1];
      for (int i = 0; i < used.length; i++) {
        used[i] = Units.toDisplay(res, used[i]);
      }
      double nominal = Units.toDisplay(res, u.nominal());
      double max = nominal;
      for (double v : used) {
        max = Math.max(max, v);
      }
      SvgChart c = charts.chart(SvgChart.SMALL, 210, Axis.time(charts.spanMs(), 4),
          Axis.amount(max, 4, res, Units.unit(res))).noLegend();
      int usedKey = c.key("used", USED_COLOR, "area");
      int borrowedKey = c.key("borrowed", BORROWED_COLOR, "area");
      int nominalKey = c.key(w.volcano() ? "deserved" : "nominal", NOMINAL_COLOR, "dash");
      double[][] pts = pick(xy[0], used, c.maxPoints());
      double[][] split = crossings(pts[0], pts[1], nominal);
      double[] xs = split[0];
      double[] lo = new double[xs.length];
      double[] below = new double[xs.length];
      double[] nom = new double[xs.length];
      double[] above = new double[xs.length];
      for (int i = 0; i < xs.length; i++) {
        below[i] = Math.min(split[1][i], nominal);
        nom[i] = nominal;
        above[i] = Math.max(split[1][i], nominal);
      }
      c.band(usedKey, xs, lo, below, "0.18");
      c.band(borrowedKey, xs, nom, above, "0.55");
      c.line(nominalKey, new double[] {0, charts.spanMs()}, new double[] {nominal, nominal}, true);
      c.line(usedKey, pts[0], pts[1], false);
      out.computeIfAbsent(u.clusterQueue(), q -> new ArrayList<>())
          .add(new Figure(c, w.volcano() ? res : u.flavor() + " · " + res, null));
    }
    return out;
  }

  /** The downsampled (x, y) of a series. */
  private static double[][] pick(double[] xs, double[] ys, int maxPoints) {
    int[] idx = Downsample.minMax(ys, maxPoints);
    double[][] out = new double[2][idx.length];
    for (int k = 0; k < idx.length; k++) {
      out[0][k] = xs[idx[k]];
      out[1][k] = ys[idx[k]];
    }
    return out;
  }

  /** Inserts the points where a line crosses {@code level}, so clamped bands meet exactly there. */
  static double[][] crossings(double[] xs, double[] ys, double level) {
    List<double[]> pts = new ArrayList<>();
    for (int i = 0; i < xs.length; i++) {
      if (i > 0 && (ys[i - 1] - level) * (ys[i] - level) < 0) {
        double f = (level - ys[i - 1]) / (ys[i] - ys[i - 1]);
        pts.add(new double[] {xs[i - 1] + f * (xs[i] - xs[i - 1]), level});
      }
      pts.add(new double[] {xs[i], ys[i]});
    }
    double[][] out = new double[2][pts.size()];
    for (int i = 0; i < pts.size(); i++) {
      out[0][i] = pts.get(i)[0];
      out[1][i] = pts.get(i)[1];
    }
    return out;
  }
}
