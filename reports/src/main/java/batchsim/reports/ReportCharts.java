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
 * every method returns charts ready to render. Charts of many series draw the most relevant ones and
 * one "rest" line ({@link Palette}). Quota charts are in {@link QuotaCharts}, percentile curves in
 * {@link PercentileCharts}, the eviction timeline in {@link EvictionChart}, topology in
 * {@link TopologyCharts}.
 */
final class ReportCharts {
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
          || c.startsWith("inqueue:")
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
      c.layered(lines.size());
      for (int i = 0; i < lines.size(); i++) {
        c.line(c.key(names.get(i), Palette.color(i), "line"), lines.get(i)[0],
            lines.get(i)[1], false);
      }
      String sub = !mean ? "allocated ÷ capacity at each sample, per resource"
          : sampled ? "allocated ÷ capacity at each sample (÷ mean capacity where capacity was not "
              + "sampled), per resource"
          : "allocated ÷ time-weighted mean capacity, per resource";
      out.add(new Figure(c, all ? "All nodes" : (Words.of(r).volcano() ? "Nodes of " : "Flavor ") + e.getKey(),
          sub));
    }
    return out;
  }

  /**
   * One line per ClusterQueue (or node pool) from the columns named {@code kind:<label>}; beyond the
   * palette, the largest by time-weighted mean and one line summing the rest.
   */
  Figure perQueue(String kind, String title, String subtitle, String yTitle) {
    List<Integer> cols = columnsOf(kind);
    double[] relevance = new double[cols.size()];
    for (int i = 0; i < cols.size(); i++) {
      relevance[i] = total(cols.get(i));
    }
    Palette.Selection sel = Palette.top(relevance);
    String noun = kind.equals("nodes") || kind.equals("failed") ? "pool" : "queue";
    List<String> names = new ArrayList<>();
    List<double[][]> lines = new ArrayList<>();
    for (int i : sel.shown()) {
      names.add(ts.columns().get(cols.get(i)).substring(kind.length() + 1));
      lines.add(series(cols.get(i)));
    }
    if (!sel.rest().isEmpty()) {
      List<Integer> rest = new ArrayList<>();
      sel.rest().forEach(i -> rest.add(cols.get(i)));
      names.add(sel.restLabel(noun) + " (sum)");
      lines.add(reduced(sum(ts.rows(), rest)));
      subtitle += "; the " + sel.shown().size() + " largest " + noun + "s by mean, the others summed";
    }
    return lines(names, lines, title, subtitle, yTitle);
  }

  /** A half-width chart of lines in palette order; a last "rest" line (when named so) is grey. */
  private Figure lines(List<String> names, List<double[][]> lines, String title, String subtitle,
      String yTitle) {
    double max = 0;
    for (double[][] xy : lines) {
      for (double v : xy[1]) {
        max = Math.max(max, v);
      }
    }
    SvgChart c = chart(SvgChart.HALF, 280, Axis.time(spanMs(), 6), Axis.count(max, 5, yTitle));
    c.layered(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      boolean rest = names.get(i).startsWith("rest: ");
      c.line(c.key(names.get(i), rest ? Palette.REST : Palette.color(i), "line"), lines.get(i)[0],
          lines.get(i)[1], false);
    }
    return new Figure(c, title, subtitle);
  }

  /** Whether the series has the cumulative {@code evicted:<queue>} columns that place evictions in time. */
  boolean hasEvictionTimes() {
    return hasTimeSeries() && !columnsOf("evicted").isEmpty();
  }

  /** Evictions and preemptions on a timeline ({@link EvictionChart}). */
  Figure evictions() {
    return EvictionChart.of(this, r);
  }

  /** Free domains and largest fit per TAS flavor ({@link TopologyCharts}). */
  List<Figure> topology() {
    return TopologyCharts.of(this, ts);
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
    double[] relevance = new double[cols.size()];
    for (int k = 0; k < cols.size(); k++) {
      int j = cols.get(k);
      for (int i : kept[j]) {
        long v = ts.rows().get(i)[j];
        relevance[k] = Math.max(relevance[k], v);
        if (v == Long.MAX_VALUE) {
          infinite = true;
        } else {
          finite = Math.max(finite, v);
        }
      }
    }
    double top = infinite ? Math.max(finite, 1000) : finite;
    Palette.Selection sel = Palette.top(relevance);
    List<String> names = new ArrayList<>();
    List<double[][]> lines = new ArrayList<>();
    for (int k : sel.shown()) {
      names.add(ts.columns().get(cols.get(k)).substring("share:".length()));
      lines.add(series(cols.get(k)));
    }
    String sub = "Kueue's weighted dominant resource share, per mille; 0 while not borrowing";
    if (!sel.rest().isEmpty()) {
      List<Integer> rest = new ArrayList<>();
      sel.rest().forEach(k -> rest.add(cols.get(k)));
      names.add(sel.restLabel("queue") + " (highest)");
      lines.add(reduced(max(ts.rows(), rest)));
      sub += "; the " + sel.shown().size() + " queues with the highest peak, the highest of the others";
    }
    SvgChart c = chart(SvgChart.WIDE, 280, Axis.time(spanMs(), 12), Axis.count(top, 5, "share (‰)"));
    c.layered(lines.size());
    for (int k = 0; k < lines.size(); k++) {
      double[][] xy = lines.get(k);
      for (int i = 0; i < xy[1].length; i++) {
        xy[1][i] = Math.min(xy[1][i], top);
      }
      boolean rest = k == sel.shown().size();
      c.line(c.key(names.get(k), rest ? Palette.REST : Palette.color(k), "line"), xy[0], xy[1], false);
    }
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

  /** Columns named {@code kind:<label>} (the label has no colon), in column order. */
  List<Integer> columnsOf(String kind) {
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
  long maxOf(int j) {
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

  /** The sum of column j over all samples: a queue's relevance by its time-weighted mean. */
  private double total(int j) {
    double sum = 0;
    for (long[] row : ts.rows()) {
      sum += row[j];
    }
    return sum;
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
    return reduced(y);
  }

  /** Per sample, the sum of the columns {@code cols}: the "rest" line of a top-N chart. */
  static double[] sum(List<long[]> rows, List<Integer> cols) {
    double[] y = new double[rows.size()];
    for (int i = 0; i < y.length; i++) {
      for (int j : cols) {
        y[i] += rows.get(i)[j];
      }
    }
    return y;
  }

  /** Per sample, the largest of the columns {@code cols} (for shares, which do not add up). */
  static double[] max(List<long[]> rows, List<Integer> cols) {
    double[] y = new double[rows.size()];
    for (int i = 0; i < y.length; i++) {
      for (int j : cols) {
        y[i] = Math.max(y[i], rows.get(i)[j]);
      }
    }
    return y;
  }

  /** A value per sample reduced like a column ({@link Downsample#minMax}), with its times. */
  private double[][] reduced(double[] y) {
    int[] idx = Downsample.minMax(y, Downsample.MAX_POINTS);
    double[][] xy = new double[2][idx.length];
    for (int k = 0; k < idx.length; k++) {
      xy[0][k] = ts.timesMs().get(idx[k]);
      xy[1][k] = y[idx[k]];
    }
    return xy;
  }
}
