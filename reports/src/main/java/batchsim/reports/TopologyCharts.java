package batchsim.reports;

import batchsim.core.metrics.TimeSeries;
import batchsim.reports.ReportCharts.Figure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Topology section's charts, from the sampled {@code tas:<flavor>:...} columns. */
final class TopologyCharts {
  private TopologyCharts() {}

  /**
   * Per TAS flavor, in column order: whole free domains per topology level, and the largest amount of
   * the main resource one domain of each level could give.
   */
  static List<Figure> of(ReportCharts charts, TimeSeries ts) {
    Map<String, List<Integer>> free = new LinkedHashMap<>();
    Map<String, List<Integer>> fit = new LinkedHashMap<>();
    for (int j = 0; j < ts.columns().size(); j++) {
      String name = ts.columns().get(j);
      if (!name.startsWith("tas:")) {
        continue;
      }
      int f = name.indexOf(":free:");
      int g = name.indexOf(":largestFit:");
      if (f > 0) {
        free.computeIfAbsent(name.substring(4, f), k -> new ArrayList<>()).add(j);
      } else if (g > 0) {
        fit.computeIfAbsent(name.substring(4, g), k -> new ArrayList<>()).add(j);
      }
    }
    List<Figure> out = new ArrayList<>();
    for (Map.Entry<String, List<Integer>> e : free.entrySet()) {
      String flavor = e.getKey();
      String prefix = "tas:" + flavor + ":free:";
      List<Integer> cols = e.getValue();
      double max = 0;
      for (int j : cols) {
        max = Math.max(max, charts.maxOf(j));
      }
      SvgChart c = charts.chart(SvgChart.HALF, 260, Axis.time(charts.spanMs(), 6), Axis.count(max, 5, "domains"));
      c.layered(cols.size());
      for (int k = 0; k < cols.size(); k++) {
        double[][] xy = charts.series(cols.get(k));
        c.line(c.key(ts.columns().get(cols.get(k)).substring(prefix.length()),
            Palette.color(k), "line"), xy[0], xy[1], false);
      }
      out.add(new Figure(c, "Free domains · " + flavor, "whole domains with nothing in use, per level"));
      List<Integer> fits = fit.getOrDefault(flavor, List.of());
      if (fits.isEmpty()) {
        continue;
      }
      String fitPrefix = "tas:" + flavor + ":largestFit:";
      String first = ts.columns().get(fits.get(0));
      String res = first.substring(first.lastIndexOf(':') + 1);
      double top = 0;
      for (int j : fits) {
        top = Math.max(top, Units.toDisplay(res, charts.maxOf(j)));
      }
      SvgChart d = charts.chart(SvgChart.HALF, 260, Axis.time(charts.spanMs(), 6),
          Axis.amount(top, 5, res, Units.unit(res)));
      d.layered(fits.size());
      for (int k = 0; k < fits.size(); k++) {
        String name = ts.columns().get(fits.get(k));
        double[][] xy = charts.series(fits.get(k));
        for (int i = 0; i < xy[1].length; i++) {
          xy[1][i] = Units.toDisplay(res, xy[1][i]);
        }
        d.line(d.key(name.substring(fitPrefix.length(), name.lastIndexOf(':')),
            Palette.color(k), "line"), xy[0], xy[1], false);
      }
      out.add(new Figure(d, "Largest fit · " + flavor, "the most " + res + " one domain of each level "
          + "could give a required request"));
    }
    return out;
  }
}
