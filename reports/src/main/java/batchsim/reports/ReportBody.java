package batchsim.reports;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The main part of report.html as the sections build it: their HTML, the figure count (which numbers
 * the charts) and the optional sections' table-of-contents links, with the cell formatting they share.
 */
final class ReportBody {
  private final StringBuilder main = new StringBuilder(1 << 16);
  private int figures;
  /** {id, title} of the sections shown only when the run has their data, in page order. */
  private final List<String[]> optional = new ArrayList<>();

  StringBuilder html() {
    return main;
  }

  int figures() {
    return figures;
  }

  List<String[]> optional() {
    return optional;
  }

  void section(String id, String title, String lead) {
    main.append("<section id=\"").append(id).append("\">\n<h2>").append(title).append("</h2>\n");
    if (lead != null) {
      main.append("<p class=\"lead\">").append(lead).append("</p>\n");
    }
  }

  void optionalSection(String id, String title, String lead) {
    optional.add(new String[] {id, title});
    section(id, title, lead);
  }

  void table(HtmlTable t) {
    if (t.isEmpty()) {
      main.append("<p class=\"note\">(none)</p>\n");
    } else {
      t.render(main);
    }
  }

  void figure(ReportCharts.Figure f) {
    figures++;
    f.chart().render(main, "c" + figures, f.title(), f.subtitle());
  }

  void noTimeSeries(String what) {
    main.append("<div class=\"notice\"><b>No time series.</b> This run took no samples ")
        .append("(<code>sampleInterval</code> is 0), so there is no ").append(what)
        .append(" over time to draw. Set e.g. <code>sampleInterval: 5m</code> in the scenario.")
        .append("</div>\n");
  }

  void kpi(String title, String value, String sub) {
    main.append("<div class=\"kpi\"><h3>").append(title).append("</h3><div class=\"v\">")
        .append(value).append("</div><p>").append(sub).append("</p></div>\n");
  }

  static String swatch(String color, String style, String label) {
    return "<span><i class=\"sw " + style + "\" style=\"--c:" + color + "\"></i>" + label
        + "</span>";
  }

  /** A small horizontal bar for a ratio, capped at 100 %; nothing for undefined ratios. */
  static String meter(double ratio) {
    if (!Double.isFinite(ratio)) {
      return "";
    }
    double w = Math.max(0, Math.min(1, ratio)) * 100;
    return "<span class=\"meter" + (ratio > 1 ? " over" : "") + "\"><span style=\"width:"
        + Formats.fixed(w, 1) + "%\"></span></span>";
  }

  static String pct(Histogram h, double p) {
    return empty(h) ? "-" : Formats.humanDuration(h.getValueAtPercentile(p));
  }

  static String max(Histogram h) {
    return empty(h) ? "-" : Formats.humanDuration(h.getMaxValue());
  }

  static String mean(Histogram h) {
    return empty(h) ? "-" : Formats.humanDuration(Math.round(h.getMean()));
  }

  private static boolean empty(Histogram h) {
    return h == null || h.getTotalCount() == 0;
  }
}
