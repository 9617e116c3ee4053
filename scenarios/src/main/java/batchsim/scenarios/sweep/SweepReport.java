package batchsim.scenarios.sweep;

import batchsim.reports.Provenance;
import batchsim.reports.SweepPage;
import batchsim.scenarios.expect.Metric;
import batchsim.scenarios.tables.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tables of a finished sweep: per configuration (replicas aggregated to mean and 95% CI) and per
 * cell. Built only from the ordered cell results, so its bytes do not depend on how the cells were run.
 */
public final class SweepReport {
  private final String title;
  private final SweepPlan plan;
  private final List<Metric> metrics;
  private final List<CellResult> results;
  private final boolean expectations;
  private final Provenance.Build build;
  private final Map<String, List<CellResult>> byConfiguration = new LinkedHashMap<>();

  public SweepReport(String title, SweepPlan plan, List<Metric> metrics, List<CellResult> results) {
    this(title, plan, metrics, results, null);
  }

  /** With {@code build}, sweep.html also says where the sweep came from (each cell's summary.json says it in full). */
  public SweepReport(String title, SweepPlan plan, List<Metric> metrics, List<CellResult> results,
      Provenance.Build build) {
    this.build = build;
    this.title = title;
    this.plan = plan;
    this.metrics = List.copyOf(metrics);
    this.results = List.copyOf(results);
    this.expectations = !plan.base().expectations().isEmpty();
    results.forEach(r -> byConfiguration.computeIfAbsent(r.cell().configuration(), k -> new ArrayList<>()).add(r));
  }

  /** Writes the sweep's tables and report page into {@code dir} (beside its {@code cells/}). */
  public void write(Path dir) throws IOException {
    Files.writeString(dir.resolve("sweep.csv"), csv(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("cells.csv"), cellsCsv(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("sweep.html"), html(), StandardCharsets.UTF_8);
    Files.write(dir.resolve("report.html"), page());
  }

  /** Expectation failures over all cells. */
  public long failed() {
    return results.stream().mapToLong(CellResult::failed).sum();
  }

  /** One row per configuration, for people: {@code mean ± ci}. */
  public Table summary() {
    List<String> headers = new ArrayList<>(dimensionHeaders());
    headers.add("runs");
    metrics.forEach(m -> headers.add(m.toString()));
    if (expectations) {
      headers.add("failed expectations");
    }
    Table t = new Table(Math.max(1, plan.dimensions().size()), headers);
    byConfiguration.forEach((config, rs) -> {
      List<String> row = new ArrayList<>(dimensionCells(rs.get(0).cell(), config));
      row.add(Integer.toString(rs.size()));
      for (int i = 0; i < metrics.size(); i++) {
        Stats s = stats(rs, i);
        Metric m = metrics.get(i);
        row.add(s.n() == 0 ? "-" : m.show(s.mean()) + (Double.isFinite(s.ci95()) ? " ± " + m.show(s.ci95()) : ""));
      }
      long failed = rs.stream().mapToLong(CellResult::failed).sum();
      if (expectations) {
        row.add(Long.toString(failed));
      }
      t.row(failed > 0 ? "failed" : null, row);
    });
    return t;
  }

  /** sweep.csv: one row per configuration; latencies in ms, utilization as a fraction, empty for no value. */
  public String csv() {
    List<String> headers = new ArrayList<>();
    headers.add("configuration");
    headers.addAll(plan.dimensions());
    headers.add("runs");
    for (Metric m : metrics) {
      String unit = m.isTime() ? " ms" : "";
      headers.add(m + " mean" + unit);
      headers.add(m + " ci95" + unit);
    }
    if (expectations) {
      headers.add("failed expectations");
    }
    Table t = new Table(1, headers);
    byConfiguration.forEach((config, rs) -> {
      List<String> row = new ArrayList<>();
      row.add(config.isEmpty() ? "base" : config);
      plan.dimensions().forEach(d -> row.add(rs.get(0).cell().levels().get(d)));
      row.add(Integer.toString(rs.size()));
      for (int i = 0; i < metrics.size(); i++) {
        Stats s = stats(rs, i);
        row.add(csvNumber(metrics.get(i), s.mean()));
        row.add(csvNumber(metrics.get(i), s.ci95()));
      }
      if (expectations) {
        row.add(Long.toString(rs.stream().mapToLong(CellResult::failed).sum()));
      }
      t.row(row);
    });
    return t.csv();
  }

  /** cells.csv: one row per run with its raw values. */
  public String cellsCsv() {
    return cells(true).csv();
  }

  private Table cells(boolean raw) {
    List<String> headers = new ArrayList<>();
    headers.add("cell");
    headers.addAll(plan.dimensions());
    headers.add("seed");
    metrics.forEach(m -> headers.add(m + (raw && m.isTime() ? " ms" : "")));
    if (expectations) {
      headers.add("failed expectations");
    }
    headers.add("dir");
    Table t = new Table(1 + plan.dimensions().size(), headers);
    for (CellResult r : results) {
      List<String> row = new ArrayList<>();
      row.add(r.cell().name());
      plan.dimensions().forEach(d -> row.add(r.cell().levels().get(d)));
      row.add(Long.toString(r.cell().scenario().spec().seed()));
      for (int i = 0; i < metrics.size(); i++) {
        double v = r.values()[i];
        row.add(raw ? csvNumber(metrics.get(i), v) : Double.isFinite(v) ? metrics.get(i).show(v) : "-");
      }
      if (expectations) {
        row.add(Long.toString(r.failed()));
      }
      row.add("cells/" + r.cell().dir());
      t.row(r.failed() > 0 ? "failed" : null, row);
    }
    return t;
  }

  /** sweep.html: both tables on one self-contained page, each cell linking to its own report. */
  public String html() {
    StringBuilder body = new StringBuilder();
    body.append("<h1>").append(Table.escape(title)).append("</h1>\n<p>").append(intro()).append("</p>\n");
    provenance(body);
    body.append("<h2>Configurations</h2>\n").append(summary().html());
    body.append("<h2>Runs</h2>\n");
    String cellsHtml = cells(false).html();
    for (CellResult r : results) { // link each run's directory to its HTML report
      String dir = Table.escape("cells/" + r.cell().dir());
      cellsHtml = cellsHtml.replace(">" + dir + "</td>", "><a href=\"" + dir + "/report.html\">" + dir + "</a></td>");
    }
    body.append(cellsHtml);
    return Table.page(title, body.toString());
  }

  /**
   * The sweep's provenance: the base scenario's lines without its seed (the cells table has each run's), the
   * engine per cell when the matrix varies it.
   */
  private void provenance(StringBuilder body) {
    if (build == null) {
      return;
    }
    Set<String> engines = new LinkedHashSet<>();
    results.forEach(r -> engines.add(r.cell().metadata(build).provenance().engine().describe()));
    body.append("<details><summary>Provenance</summary>\n<ul>\n");
    for (Provenance.Line l : Provenance.lines(plan.base().metadata(null, build), plan.base().spec().seed())) {
      String value = l.key().equals("engine") && engines.size() > 1 ? "per cell: " + String.join(", ", engines)
          : l.value();
      if (!l.key().equals("seed")) {
        body.append("<li>").append(Table.escape(l.key() + ": " + value)).append("</li>\n");
      }
    }
    body.append("</ul>\n</details>\n");
  }

  private String intro() {
    return results.size() + " runs: " + byConfiguration.size() + " configuration"
        + (byConfiguration.size() == 1 ? "" : "s") + " × " + plan.replicas() + " replica"
        + (plan.replicas() == 1 ? "" : "s")
        + " (seeds seed … seed+" + (plan.replicas() - 1) + "). Values are means over replicas ± the "
        + "half-width of a 95% confidence interval (Student's t). Latencies are times to quota reservation "
        + "(wait), to running (start) or to finished (completion); utilization is allocated ÷ capacity, "
        + "time-weighted.";
  }

  /**
   * report.html: each metric against each swept parameter with the replicas' spread, the comparison
   * table and the runs ({@link SweepPage}).
   */
  public byte[] page() {
    List<SweepPage.Metric> ms = metrics.stream().map(m -> new SweepPage.Metric(m.toString(),
        m.isTime() ? SweepPage.Scale.DURATION_MS : m.kind() == Metric.Kind.UTILIZATION ? SweepPage.Scale.RATIO
            : SweepPage.Scale.NUMBER)).toList();
    List<SweepPage.Run> runs = results.stream().map(r -> new SweepPage.Run(r.cell().name(),
        plan.dimensions().stream().map(d -> r.cell().levels().get(d)).toList(), r.values().clone(),
        "cells/" + r.cell().dir())).toList();
    Table t = summary();
    return SweepPage.render(new SweepPage.Sweep(title, intro(), plan.dimensions(), ms, runs, t.headers(),
        t.rows(), t.left()));
  }

  private List<String> dimensionHeaders() {
    return plan.dimensions().isEmpty() ? List.of("configuration") : plan.dimensions();
  }

  private List<String> dimensionCells(Cell cell, String config) {
    if (plan.dimensions().isEmpty()) {
      return List.of(config.isEmpty() ? "base" : config);
    }
    return plan.dimensions().stream().map(d -> cell.levels().get(d)).toList();
  }

  private static Stats stats(List<CellResult> rs, int metric) {
    double[] v = new double[rs.size()];
    for (int k = 0; k < v.length; k++) {
      v[k] = rs.get(k).values()[metric];
    }
    return Stats.of(v);
  }

  private static String csvNumber(Metric m, double v) {
    return Double.isFinite(v) ? m.csv(v) : "";
  }
}
