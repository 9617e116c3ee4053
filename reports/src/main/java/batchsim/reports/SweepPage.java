package batchsim.reports;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep's report.html: every metric against every swept parameter (a line per combination of the
 * other parameters' levels through the replicas' means, each replica a dot and their min–max a pale
 * bar), then the comparison table and the runs, each linked to its own report. Same page style and
 * script as a run's report; self-contained, and its bytes depend only on the runs in cell order.
 */
public final class SweepPage {
  /** How a metric's values read: milliseconds, a fraction shown in percent, or a plain number. */
  public enum Scale { DURATION_MS, RATIO, NUMBER }

  /** A metric column of the sweep. */
  public record Metric(String name, Scale scale) {}

  /**
   * One run.
   *
   * @param levels its level of each swept parameter, in parameter order
   * @param values one per metric, NaN when the run has no value
   * @param dir its directory relative to the page, where its own report.html is
   */
  public record Run(String name, List<String> levels, double[] values, String dir) {}

  /**
   * What the page shows.
   *
   * @param intro one paragraph of plain text under the title
   * @param parameters the swept parameters (matrix dimensions), in matrix order
   * @param table the comparison table: headers, then rows of plain-text cells
   * @param nameColumns the table's leading name columns (left-aligned)
   */
  public record Sweep(String title, String intro, List<String> parameters, List<Metric> metrics,
      List<Run> runs, List<String> headers, List<List<String>> table, int nameColumns) {}

  /** Lines per chart before the other parameters are averaged into one. */
  private static final int MAX_LINES = Palette.SERIES.length;

  private final Sweep s;
  private final ReportBody body = new ReportBody();
  private final StringBuilder main = body.html();

  private SweepPage(Sweep s) {
    this.s = s;
  }

  public static byte[] render(Sweep sweep) {
    return new SweepPage(sweep).page().getBytes(StandardCharsets.UTF_8);
  }

  private String page() {
    charts();
    body.section("comparison", "Comparison", "One row per combination of levels; mean ± the half-width "
        + "of a 95% confidence interval over replicas.");
    HtmlTable t = new HtmlTable(s.nameColumns(), escaped(s.headers()));
    s.table().forEach(row -> t.row(escaped(row)));
    body.table(t);
    main.append("</section>\n");
    runs();
    StringBuilder out = new StringBuilder(main.length() + HtmlReport.CSS.length() + 8192);
    out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
        .append(Html.esc(s.title())).append("</title>\n<style>\n").append(HtmlReport.CSS)
        .append("</style>\n</head>\n<body data-charts=\"").append(body.figures()).append("\">\n")
        .append("<header class=\"top\"><div class=\"wrap\">\n<p class=\"eyebrow\">batchsim sweep</p>\n<h1>")
        .append(Html.esc(s.title())).append("</h1>\n<p class=\"lead\">").append(Html.esc(s.intro()))
        .append("</p>\n</div></header>\n<nav class=\"toc wrap\"><a href=\"#metrics\">Metrics</a>")
        .append("<a href=\"#comparison\">Comparison</a><a href=\"#runs\">Runs</a></nav>\n")
        .append("<main class=\"wrap\">\n").append(main).append("</main>\n<footer class=\"wrap\"><p>")
        .append("Files of this sweep: <a href=\"sweep.csv\">sweep.csv</a> · <a href=\"cells.csv\">cells.csv")
        .append("</a> · <a href=\"sweep.html\">sweep.html</a></p></footer>\n<script>\n")
        .append(HtmlReport.JS).append("</script>\n</body>\n</html>\n");
    return out.toString();
  }

  private void charts() {
    body.section("metrics", "Metrics against parameters", "Each metric against each swept parameter: "
        + "a line per combination of the other parameters through the replicas' means; dots are single "
        + "replicas, the pale bar their range.");
    if (s.parameters().isEmpty()) {
      main.append("<p class=\"note\">Nothing is swept (replicas only): see the table.</p>\n");
    }
    List<List<String>> levels = levels();
    for (int m = 0; m < s.metrics().size() && !s.parameters().isEmpty(); m++) {
      main.append("<h3 class=\"sub\">").append(Html.esc(s.metrics().get(m).name())).append("</h3>\n")
          .append(s.parameters().size() > 2 ? "<div class=\"grid3\">\n" : "<div class=\"grid2\">\n");
      for (int d = 0; d < s.parameters().size(); d++) {
        body.figure(chart(m, d, levels));
      }
      main.append("</div>\n");
    }
    main.append("</section>\n");
  }

  /** Metric m against parameter d: one series per combination of the other parameters' levels. */
  private ReportCharts.Figure chart(int m, int d, List<List<String>> levels) {
    Metric metric = s.metrics().get(m);
    Map<String, List<Run>> series = new LinkedHashMap<>();
    boolean averaged = false;
    for (Run r : s.runs()) {
      series.computeIfAbsent(others(r, d), k -> new ArrayList<>()).add(r);
    }
    if (series.size() > MAX_LINES) {
      series = Map.of("mean over the other parameters", s.runs());
      averaged = true;
    }
    double max = 0;
    for (Run r : s.runs()) {
      if (Double.isFinite(r.values()[m])) {
        max = Math.max(max, r.values()[m]);
      }
    }
    List<String> xs = levels.get(d);
    SvgChart c = new SvgChart(SvgChart.HALF, 230, Axis.categories(xs, s.parameters().get(d)),
        yAxis(metric, max));
    c.layered(series.size());
    int k = 0;
    for (Map.Entry<String, List<Run>> e : series.entrySet()) {
      int key = c.key(e.getKey().isEmpty() ? metric.name() : e.getKey(), Palette.color(k), "line");
      double offset = (k - (series.size() - 1) / 2.0) * Math.min(0.08, 0.4 / series.size());
      List<Double> lx = new ArrayList<>();
      List<Double> ly = new ArrayList<>();
      for (int i = 0; i < xs.size(); i++) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        double sum = 0;
        int n = 0;
        for (Run r : e.getValue()) {
          double v = r.values()[m];
          if (r.levels().get(d).equals(xs.get(i)) && Double.isFinite(v)) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
            sum += v;
            n++;
          }
        }
        if (n == 0) {
          continue;
        }
        double x = i + offset;
        if (hi > lo) {
          c.range(key, x, lo, hi);
        }
        for (Run r : e.getValue()) {
          double v = r.values()[m];
          if (r.levels().get(d).equals(xs.get(i)) && Double.isFinite(v)) {
            c.dot(key, x, v, r.name() + ": " + show(metric, v));
          }
        }
        lx.add(x);
        ly.add(sum / n);
      }
      c.line(key, lx.stream().mapToDouble(Double::doubleValue).toArray(),
          ly.stream().mapToDouble(Double::doubleValue).toArray(), false);
      k++;
    }
    String sub = averaged ? "the other parameters' combinations are too many to draw: their mean"
        : s.parameters().size() > 1 ? "a line per level of the other parameters" : "mean of the replicas";
    return new ReportCharts.Figure(c, "against " + s.parameters().get(d), sub);
  }

  private static Axis yAxis(Metric m, double max) {
    return switch (m.scale()) {
      case DURATION_MS -> Axis.duration(max, 5, m.name());
      case RATIO -> Axis.percent(max, m.name());
      case NUMBER -> Axis.amount(max, 5, m.name(), "");
    };
  }

  static String show(Metric m, double v) {
    return switch (m.scale()) {
      case DURATION_MS -> Formats.humanDuration(Math.round(v));
      case RATIO -> Formats.percent(v);
      case NUMBER -> Formats.fixed(v, 2);
    };
  }

  /** The run's levels of every parameter but d, e.g. {@code fairSharing=on}. */
  private String others(Run r, int d) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.parameters().size(); i++) {
      if (i != d) {
        sb.append(sb.length() == 0 ? "" : ", ").append(s.parameters().get(i)).append('=')
            .append(r.levels().get(i));
      }
    }
    return sb.toString();
  }

  /** Each parameter's levels in the order the runs first show them (the matrix's written order). */
  private List<List<String>> levels() {
    List<List<String>> out = new ArrayList<>();
    for (int d = 0; d < s.parameters().size(); d++) {
      List<String> seen = new ArrayList<>();
      for (Run r : s.runs()) {
        if (!seen.contains(r.levels().get(d))) {
          seen.add(r.levels().get(d));
        }
      }
      out.add(seen);
    }
    return out;
  }

  private void runs() {
    body.section("runs", "Runs", "Every run with its values; each links to its own report.");
    List<String> headers = new ArrayList<>(List.of("Run"));
    s.metrics().forEach(m -> headers.add(Html.esc(m.name())));
    HtmlTable t = new HtmlTable(1, headers.toArray(new String[0]));
    for (Run r : s.runs()) {
      List<String> row = new ArrayList<>();
      row.add("<a href=\"" + Html.esc(r.dir()) + "/report.html\">" + Html.esc(r.name()) + "</a>");
      for (int m = 0; m < s.metrics().size(); m++) {
        double v = r.values()[m];
        row.add(Double.isFinite(v) ? show(s.metrics().get(m), v) : "-");
      }
      t.row(row.toArray(new String[0]));
    }
    body.table(t);
    main.append("</section>\n");
  }

  private static String[] escaped(List<String> cells) {
    return cells.stream().map(Html::esc).toArray(String[]::new);
  }
}
