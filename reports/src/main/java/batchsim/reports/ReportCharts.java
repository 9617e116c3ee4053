package batchsim.reports;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.model.Durations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the report's time-series charts from a RunResult and holds the downsampled series they share;
 * every method returns charts ready to render. Quota charts are in {@link QuotaCharts}, percentile
 * curves in {@link PercentileCharts}.
 */
final class ReportCharts {
  /** A restrained categorical palette (Observable 10), readable on light and dark backgrounds. */
  static final String[] PALETTE = {"#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7",
      "#a463f2", "#97bbf5", "#9c6b4e", "#9498a0"};
  static final String OVERALL_COLOR = "#6b7280";
  static final String USED_COLOR = "#4269d0";
  static final String BORROWED_COLOR = "#f28e2c";
  static final String NOMINAL_COLOR = "#374151";
  static final String PREEMPTED_COLOR = "#e15759";
  static final String EVICTED_COLOR = "#efb118";
  /**
   * Time-series points in the whole page. Lines share it, so a run with hundreds of queues still
   * gives a page of a few MB; each line gets at least {@link #MIN_POINTS}.
   */
  static final int PAGE_POINTS = 250_000;
  static final int MIN_POINTS = 100;

  /** A chart with its caption. */
  record Figure(SvgChart chart, String title, String subtitle) {}

  private final RunResult r;
  private final TimeSeries ts;
  /** Per column, the sample indices that survive {@link Downsample#minMaxColumns}. */
  private final int[][] kept;
  private final int pointsPerLine;

  ReportCharts(RunResult r) {
    this.r = r;
    this.ts = r.timeSeries();
    this.kept = ts.timesMs().isEmpty() ? new int[0][]
        : Downsample.minMaxColumns(ts.rows(), ts.columns().size(), Downsample.MAX_POINTS);
    this.pointsPerLine = Math.max(MIN_POINTS, PAGE_POINTS / Math.max(1, countLines()));
  }

  boolean hasTimeSeries() {
    return !ts.timesMs().isEmpty();
  }

  double spanMs() {
    List<Long> t = ts.timesMs();
    return Math.max(r.endTimeMs(), t.isEmpty() ? 0 : t.get(t.size() - 1));
  }

  /**
   * Lines the time-series charts will draw; a quota chart counts three (line and two bands). Share and
   * node-pool lines count only when their section draws them.
   */
  private int countLines() {
    boolean shares = hasShares();
    boolean nodes = nodesChanged();
    int lines = 0;
    for (String c : ts.columns()) {
      lines += c.startsWith("allocated:") || c.startsWith("pending:") || c.startsWith("holding:")
          || (shares && c.startsWith("share:"))
          || (nodes && (c.startsWith("nodes:") || c.startsWith("failed:")))
          || (c.startsWith("tas:") && (c.contains(":free:") || c.contains(":largestFit:")))
          ? 1 : c.startsWith("used:") ? 3 : 0;
    }
    return lines;
  }

  SvgChart chart(int width, int height, Axis x, Axis y) {
    return new SvgChart(width, height, x, y).budget(pointsPerLine);
  }

  /** Allocated ÷ mean capacity per resource, one chart for all nodes then one per flavor. */
  List<Figure> utilization() {
    Map<String, List<UtilizationStat>> byFlavor = new LinkedHashMap<>();
    for (UtilizationStat u : r.utilization()) {
      if (UtilizationStat.ALL_NODES.equals(u.flavor())) {
        byFlavor.computeIfAbsent(u.flavor(), f -> new ArrayList<>()).add(u);
      }
    }
    for (UtilizationStat u : r.utilization()) {
      if (!UtilizationStat.ALL_NODES.equals(u.flavor())) {
        byFlavor.computeIfAbsent(u.flavor(), f -> new ArrayList<>()).add(u);
      }
    }
    List<Figure> out = new ArrayList<>();
    for (Map.Entry<String, List<UtilizationStat>> e : byFlavor.entrySet()) {
      List<double[][]> lines = new ArrayList<>();
      List<String> names = new ArrayList<>();
      boolean sampled = false;
      boolean mean = false;
      double max = 0;
      for (UtilizationStat u : e.getValue()) {
        String key = u.flavor() + ":" + u.resource();
        int alloc = ts.column("allocated:" + key);
        int cap = ts.column("capacity:" + key);
        double[][] xy;
        if (alloc >= 0 && cap >= 0 && u.meanCapacity() > 0) {
          xy = ratio(alloc, cap); // capacity changes as nodes fail or are added
          sampled = true;
        } else if (alloc >= 0 && u.meanCapacity() > 0) {
          xy = series(alloc);
          for (int i = 0; i < xy[1].length; i++) {
            xy[1][i] /= u.meanCapacity();
          }
          mean = true;
        } else {
          continue;
        }
        for (double v : xy[1]) {
          max = Math.max(max, v);
        }
        lines.add(xy);
        names.add(u.resource());
      }
      boolean all = UtilizationStat.ALL_NODES.equals(e.getKey());
      SvgChart c = chart(all ? SvgChart.WIDE : SvgChart.HALF, all ? 300 : 260,
          Axis.time(spanMs(), all ? 12 : 6), Axis.percent(max, "allocated / capacity"));
      for (int i = 0; i < lines.size(); i++) {
        c.line(c.key(names.get(i), PALETTE[i % PALETTE.length], "line"), lines.get(i)[0],
            lines.get(i)[1], false);
      }
      String sub = !mean ? "allocated ÷ capacity at each sample, per resource"
          : sampled ? "allocated ÷ capacity at each sample (÷ mean capacity where capacity was not "
              + "sampled), per resource"
          : "allocated ÷ time-weighted mean capacity, per resource";
      out.add(new Figure(c, all ? "All nodes" : "Flavor " + e.getKey(), sub));
    }
    return out;
  }

  /** One line per ClusterQueue (or node pool) from the columns named {@code kind:<label>}. */
  Figure perQueue(String kind, String title, String subtitle, String yTitle) {
    List<Integer> cols = columnsOf(kind);
    double max = 0;
    for (int j : cols) {
      max = Math.max(max, maxOf(j));
    }
    SvgChart c = chart(SvgChart.HALF, 280, Axis.time(spanMs(), 6), Axis.count(max, 5, yTitle));
    for (int i = 0; i < cols.size(); i++) {
      String queue = ts.columns().get(cols.get(i)).substring(kind.length() + 1);
      double[][] xy = series(cols.get(i));
      c.line(c.key(queue, PALETTE[i % PALETTE.length], "line"), xy[0], xy[1], false);
    }
    return new Figure(c, title, subtitle);
  }

  /** Whether the series has the cumulative {@code evicted:<queue>} columns that place evictions in time. */
  boolean hasEvictionTimes() {
    return hasTimeSeries() && !columnsOf("evicted").isEmpty();
  }

  /**
   * Evictions and preemptions on a timeline, from the differences of the cumulative
   * {@code evicted:<queue>} and {@code preempted:<queue>} columns between samples. An eviction seen at
   * sample i happened in (t[i-1], t[i]]; buckets are whole sample intervals, so it lands in the right
   * one.
   */
  Figure evictions() {
    List<Integer> ev = columnsOf("evicted");
    List<Integer> pr = columnsOf("preempted");
    List<Long> t = ts.timesMs();
    double span = Math.max(1, spanMs());
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

  /** Whether any ClusterQueue had a non-zero fair-sharing share ({@code share:<queue>}) in a sample. */
  boolean hasShares() {
    if (!hasTimeSeries()) {
      return false;
    }
    for (int j : columnsOf("share")) {
      if (maxOf(j) > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Fair-sharing dominant resource share per ClusterQueue, per mille; an infinite share (borrowing
   * with weight 0) is drawn at the top of the axis.
   */
  Figure shares() {
    List<Integer> cols = columnsOf("share");
    long finite = 0;
    boolean infinite = false;
    for (int j : cols) {
      for (int i : kept[j]) {
        long v = ts.rows().get(i)[j];
        if (v == Long.MAX_VALUE) {
          infinite = true;
        } else {
          finite = Math.max(finite, v);
        }
      }
    }
    double top = infinite ? Math.max(finite, 1000) : finite;
    SvgChart c = chart(SvgChart.WIDE, 280, Axis.time(spanMs(), 12), Axis.count(top, 5, "share (‰)"));
    for (int k = 0; k < cols.size(); k++) {
      double[][] xy = series(cols.get(k));
      for (int i = 0; i < xy[1].length; i++) {
        xy[1][i] = Math.min(xy[1][i], top);
      }
      c.line(c.key(ts.columns().get(cols.get(k)).substring("share:".length()),
          PALETTE[k % PALETTE.length], "line"), xy[0], xy[1], false);
    }
    String sub = "Kueue's weighted dominant resource share, per mille; 0 while not borrowing";
    if (infinite) {
      sub += "; infinite shares (weight 0) drawn at the top";
    }
    return new Figure(c, "Fair-sharing share, by ClusterQueue", sub);
  }

  /** Whether node counts changed or nodes failed: the sampled pool columns are worth drawing. */
  boolean nodesChanged() {
    if (!hasTimeSeries()) {
      return false;
    }
    for (String kind : List.of("nodes", "failed")) {
      for (int j : columnsOf(kind)) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int i : kept[j]) {
          long v = ts.rows().get(i)[j];
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
        if (hi > lo || (kind.equals("failed") && hi > 0)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Per TAS flavor, in column order: whole free domains per topology level, and the largest amount of
   * the main resource one domain of each level could give.
   */
  List<Figure> topology() {
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
        max = Math.max(max, maxOf(j));
      }
      SvgChart c = chart(SvgChart.HALF, 260, Axis.time(spanMs(), 6), Axis.count(max, 5, "domains"));
      for (int k = 0; k < cols.size(); k++) {
        double[][] xy = series(cols.get(k));
        c.line(c.key(ts.columns().get(cols.get(k)).substring(prefix.length()),
            PALETTE[k % PALETTE.length], "line"), xy[0], xy[1], false);
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
        top = Math.max(top, Units.toDisplay(res, maxOf(j)));
      }
      SvgChart d = chart(SvgChart.HALF, 260, Axis.time(spanMs(), 6),
          Axis.amount(top, 5, res, Units.unit(res)));
      for (int k = 0; k < fits.size(); k++) {
        String name = ts.columns().get(fits.get(k));
        double[][] xy = series(fits.get(k));
        for (int i = 0; i < xy[1].length; i++) {
          xy[1][i] = Units.toDisplay(res, xy[1][i]);
        }
        d.line(d.key(name.substring(fitPrefix.length(), name.lastIndexOf(':')),
            PALETTE[k % PALETTE.length], "line"), xy[0], xy[1], false);
      }
      out.add(new Figure(d, "Largest fit · " + flavor, "the most " + res + " one domain of each level "
          + "could give a required request"));
    }
    return out;
  }

  /** Columns named {@code kind:<label>} (the label has no colon), in column order. */
  private List<Integer> columnsOf(String kind) {
    List<Integer> cols = new ArrayList<>();
    for (int j = 0; j < ts.columns().size(); j++) {
      String name = ts.columns().get(j);
      if (name.startsWith(kind + ":") && name.indexOf(':', kind.length() + 1) < 0) {
        cols.add(j);
      }
    }
    return cols;
  }

  /** The largest value of column j (the kept points include every column's maximum). */
  private long maxOf(int j) {
    long max = 0;
    for (int i : kept[j]) {
      max = Math.max(max, ts.rows().get(i)[j]);
    }
    return max;
  }

  /** The kept (time, value) points of column j, as fresh arrays the caller may scale. */
  double[][] series(int j) {
    int[] idx = kept[j];
    double[][] xy = new double[2][idx.length];
    for (int k = 0; k < idx.length; k++) {
      xy[0][k] = ts.timesMs().get(idx[k]);
      xy[1][k] = ts.rows().get(idx[k])[j];
    }
    return xy;
  }

  /**
   * allocated ÷ capacity per sample (0 while there is no capacity), reduced like a column. Reads the
   * two columns of every row, so it costs one pass per utilization line, not a transposed table.
   */
  private double[][] ratio(int allocated, int capacity) {
    int n = ts.rows().size();
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      long[] row = ts.rows().get(i);
      y[i] = row[capacity] > 0 ? (double) row[allocated] / row[capacity] : 0;
    }
    int[] idx = Downsample.minMax(y, Downsample.MAX_POINTS);
    double[][] xy = new double[2][idx.length];
    for (int k = 0; k < idx.length; k++) {
      xy[0][k] = ts.timesMs().get(idx[k]);
      xy[1][k] = y[idx[k]];
    }
    return xy;
  }

}
