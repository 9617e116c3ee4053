package batchsim.scenarios.compare;

import batchsim.scenarios.tables.Format;
import batchsim.scenarios.tables.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code compare}'s output: per compared result a table of every {@link Comparison} row with absolute
 * and relative deltas and a flag for changes beyond the tolerance, as text, CSV and HTML.
 */
public final class CompareReport {
  /**
   * One result compared with the base.
   *
   * @param provenance {@code key: base → other} for each provenance line that differs
   */
  public record Pair(String baseName, String otherName, List<String> provenance, List<Comparison.Row> rows) {
    public Pair {
      provenance = List.copyOf(provenance);
    }

    /** {@code other} compared with {@code base}: their provenance and every metric. */
    public static Pair of(String baseName, SummaryFile base, String otherName, SummaryFile other) {
      return new Pair(baseName, otherName, ProvenanceDiff.of(base.provenance(), other.provenance()),
          Comparison.rows(base, other));
    }
  }

  private final List<Pair> pairs;
  private final double tolerance;

  public CompareReport(List<Pair> pairs, double tolerance) {
    this.pairs = List.copyOf(pairs);
    this.tolerance = tolerance;
  }

  /** Rows flagged "worse" over all pairs. */
  public long worse() {
    return pairs.stream().flatMap(p -> p.rows().stream()).filter(r -> r.flag(tolerance).equals("worse")).count();
  }

  public String text() {
    StringBuilder sb = new StringBuilder();
    for (Pair p : pairs) {
      sb.append(sb.length() == 0 ? "" : "\n").append(heading(p)).append('\n');
      if (!p.provenance().isEmpty()) {
        sb.append("  Provenance differs:\n");
        p.provenance().forEach(l -> sb.append("    ").append(l).append('\n'));
      }
      sb.append(table(p, false).text("  "));
    }
    return sb.toString();
  }

  /** All pairs in one CSV; latencies in ms, utilization as a fraction, empty where there is no value. */
  public String csv() {
    Table t = new Table(5, List.of("base", "other", "scope", "metric", "unit", "base value", "other value", "delta",
        "relative", "flag"));
    for (Pair p : pairs) {
      for (Comparison.Row r : p.rows()) {
        t.row(List.of(p.baseName(), p.otherName(), r.scope(), r.metric(), unit(r.unit()), csv(r.base()),
            csv(r.other()), csv(r.delta()), csv(r.relative()), r.flag(tolerance)));
      }
    }
    return t.csv();
  }

  public String html() {
    StringBuilder body = new StringBuilder("<h1>batchsim compare</h1>\n<p>Changes beyond ")
        .append(Table.escape(Format.number(tolerance * 100, 2))).append("% of the base value are flagged. Waits are "
            + "times to quota reservation.</p>\n");
    for (Pair p : pairs) {
      body.append("<h2>").append(Table.escape(heading(p))).append("</h2>\n");
      if (!p.provenance().isEmpty()) {
        body.append("<p>Provenance differs:</p>\n<ul>\n");
        p.provenance().forEach(l -> body.append("<li>").append(Table.escape(l)).append("</li>\n"));
        body.append("</ul>\n");
      }
      body.append(table(p, true).html());
    }
    return Table.page("batchsim compare", body.toString());
  }

  private String heading(Pair p) {
    return p.otherName() + " vs " + p.baseName();
  }

  private Table table(Pair p, boolean html) {
    Table t = new Table(2, List.of("SCOPE", "METRIC", "BASE", "OTHER", "DELTA", "CHANGE", "FLAG"));
    for (Comparison.Row r : p.rows()) {
      String flag = r.flag(tolerance);
      t.row(flag.isEmpty() ? null : flag, new ArrayList<>(List.of(r.scope(), r.metric(), show(r.unit(), r.base()),
          show(r.unit(), r.other()), delta(r), Format.relative(r.base(), r.other()), flag)));
    }
    return t;
  }

  private static String delta(Comparison.Row r) {
    double d = r.delta();
    if (!Double.isFinite(d)) {
      return "-";
    }
    // A change of utilization is in percentage points; CHANGE is relative to the base.
    return Format.signed(d, r.unit() == Comparison.Unit.RATIO ? Format.fixed(d * 100, 1) + "pp" : show(r.unit(), d));
  }

  private static String show(Comparison.Unit unit, double v) {
    if (!Double.isFinite(v)) {
      return "-";
    }
    switch (unit) {
      case MS: return Format.duration(v);
      case RATIO: return Format.fixed(v * 100, 1) + "%";
      case HOURS: return Format.fixed(v, 1);
      default: return Format.number(v, 2);
    }
  }

  private static String unit(Comparison.Unit u) {
    switch (u) {
      case MS: return "ms";
      case RATIO: return "fraction";
      case HOURS: return "hours";
      default: return "count";
    }
  }

  private static String csv(double v) {
    if (Double.isNaN(v)) {
      return "";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "inf" : "-inf";
    }
    return Format.number(v, 6);
  }
}
