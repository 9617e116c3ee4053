package batchsim.reports;

import static batchsim.reports.ReportBody.max;
import static batchsim.reports.ReportBody.meter;
import static batchsim.reports.ReportBody.pct;

import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.model.Durations;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.SimulationSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * report.html: one self-contained page (inline CSS, SVG and a small script; no network) with the run's
 * header, summary tables and charts. Its bytes depend only on the RunResult and metadata, so two
 * identical runs give identical files, and its size depends on the number of queues and flavors, never
 * on the number of workloads or samples.
 */
final class HtmlReport {
  /** Groups (priorities, workload classes) drawn and tabulated; the rest are summarised in one line. */
  static final int GROUP_LIMIT = 10;
  static final String CSS = resource("report.css");
  static final String JS = resource("report.js");

  private final RunResult r;
  private final RunMetadata meta;
  private final String digest;
  private final ReportCharts charts;
  private final ReportBody body = new ReportBody();
  private final StringBuilder main = body.html();

  private final WorkloadGroups byPriority;
  private final WorkloadGroups byClass;

  private HtmlReport(RunResult r, RunMetadata meta, String digest, WorkloadGroups byPriority,
      WorkloadGroups byClass) {
    this.r = r;
    this.meta = meta;
    this.digest = digest;
    this.charts = new ReportCharts(r);
    this.byPriority = byPriority;
    this.byClass = byClass;
  }

  /**
   * Writes the page to {@code out}, which is flushed but left open; the groups come from the workloads'
   * records as they streamed ({@link WorkloadRows}).
   */
  static void write(RunResult r, RunMetadata meta, String workloadsDigest, WorkloadGroups byPriority,
      WorkloadGroups byClass, OutputStream out) throws IOException {
    out.write(new HtmlReport(r, meta, workloadsDigest, byPriority, byClass).page()
        .getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** The page of a result that lists its workloads (tests). */
  static String render(RunResult r, RunMetadata meta, String workloadsDigest) {
    return new HtmlReport(r, meta, workloadsDigest, WorkloadGroups.byPriority(r.workloads(), GROUP_LIMIT),
        WorkloadGroups.byClass(r.workloads(), GROUP_LIMIT)).page();
  }

  private String page() {
    kpis();
    new StandardSections(r, charts, body).write(byPriority, byClass);
    new OptionalSections(r, charts, body).write();
    new WaitingSection(r, body).write();

    StringBuilder out = new StringBuilder(main.length() + CSS.length() + JS.length() + 4096);
    out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<meta name=\"generator\" content=\"batchsim ")
        .append(Html.orDash(meta.toolVersion())).append("\">\n<title>")
        .append(Html.orDash(r.scenarioName())).append(" · batchsim report</title>\n<style>\n")
        .append(CSS).append("</style>\n</head>\n<body data-charts=\"").append(body.figures())
        .append("\">\n");
    header(out);
    out.append("<nav class=\"toc wrap\"><a href=\"#workloads\">Workloads</a>")
        .append("<a href=\"#waits\">Wait times</a><a href=\"#utilization\">Utilization</a>")
        .append("<a href=\"#quota\">").append(Words.of(r).volcano() ? "Usage vs deserved" : "Quota usage")
        .append("</a><a href=\"#queues\">Queues over time</a>");
    for (String[] link : body.optional()) {
      out.append("<a href=\"#").append(link[0]).append("\">").append(link[1]).append("</a>");
    }
    out.append("</nav>\n");
    out.append("<main class=\"wrap\">\n").append(main).append("</main>\n");
    footer(out);
    out.append("<script>\n").append(JS).append("</script>\n</body>\n</html>\n");
    return out.toString();
  }

  private void header(StringBuilder out) {
    out.append("<header class=\"top\"><div class=\"wrap\">\n<p class=\"eyebrow\">batchsim report</p>\n")
        .append("<h1>").append(Html.orDash(r.scenarioName())).append("</h1>\n<dl class=\"meta\">\n");
    meta(out, "Scenario file", "<code>" + Html.orDash(meta.scenarioFile()) + "</code>");
    meta(out, "Scenario SHA-256", "<code class=\"hash\">" + Html.orDash(meta.scenarioHash())
        + "</code>");
    meta(out, "Seed", Long.toString(r.seed()));
    String horizon = r.horizonMs() == SimulationSpec.NO_HORIZON ? "no horizon"
        : "horizon " + Durations.format(r.horizonMs());
    meta(out, "Simulated span", Durations.format(r.endTimeMs()) + " <span class=\"muted\">("
        + horizon + ")</span>");
    meta(out, "Events", Formats.grouped(r.events()));
    List<Long> t = r.timeSeries().timesMs();
    meta(out, "Samples", t.isEmpty() ? "none" : Formats.grouped(t.size())
        + (t.size() > 1 ? " <span class=\"muted\">every " + Durations.format(t.get(1) - t.get(0))
        + "</span>" : ""));
    ProvenanceHtml.entries(out, meta);
    out.append("</dl>\n");
    ProvenanceHtml.inputs(out, meta);
    if (r.unknownQueueArrivals() > 0) {
      out.append("<p class=\"warn\">").append(Formats.grouped(r.unknownQueueArrivals()))
          .append(" arrivals went to unknown LocalQueues and were never queued.</p>\n");
    }
    for (String w : PreemptionWarnings.of(r)) {
      out.append("<p class=\"warn\">").append(Html.esc(w)).append(".</p>\n");
    }
    out.append("</div></header>\n");
  }

  static void meta(StringBuilder out, String term, String html) {
    out.append("<div><dt>").append(term).append("</dt><dd>").append(html).append("</dd></div>\n");
  }

  private void kpis() {
    QueueStats all = r.overall();
    main.append("<section class=\"kpis\">\n");
    if (all != null) {
      body.kpi("Workloads", Formats.grouped(all.arrived()), Formats.grouped(all.finished())
          + " finished · " + Formats.grouped(all.pendingAtEnd()) + " pending");
      Histogram rsv = all.timeToReservation();
      body.kpi(Words.of(r).volcano() ? "Wait to gang bound" : "Wait to reservation", pct(rsv, 50) + "<small>p50</small>",
          "p99 " + pct(rsv, 99) + " · max " + max(rsv));
      Histogram start = all.timeToStart();
      body.kpi("Time to start", pct(start, 50) + "<small>p50</small>",
          "p99 " + pct(start, 99) + " · max " + max(start));
      body.kpi("Evictions", Formats.grouped(all.evicted()),
          Formats.grouped(all.preempted()) + " by preemption");
    }
    StringBuilder util = new StringBuilder();
    for (UtilizationStat u : r.utilization()) {
      if (UtilizationStat.ALL_NODES.equals(u.flavor()) && u.meanCapacity() > 0
          && !ResourceSpace.PODS.equals(u.resource())) {
        util.append("<div class=\"mrow\"><span>").append(Html.esc(u.resource())).append("</span>")
            .append(meter(u.utilization())).append("<b>")
            .append(Formats.percent(u.utilization()))
            .append("</b></div>");
      }
    }
    if (util.length() > 0) {
      main.append("<div class=\"kpi wide\"><h3>Cluster utilization</h3>").append(util)
          .append("<p>time-weighted, all nodes</p></div>\n");
    }
    main.append("</section>\n");
  }


  private void footer(StringBuilder out) {
    out.append("<footer class=\"wrap\"><p>Files of this run: <a href=\"summary.json\">summary.json</a>")
        .append(" · <a href=\"workloads.csv\">workloads.csv</a>");
    if (charts.hasTimeSeries()) {
      out.append(" · <a href=\"timeseries.csv\">timeseries.csv</a>");
    }
    out.append(" · <a href=\"waits.hlog\">waits.hlog</a> (HdrHistogram log, values in ms)</p>\n")
        .append("<p>workloads.csv SHA-256 <code class=\"hash\">").append(Html.orDash(digest))
        .append("</code></p>\n<p>All times are virtual. This page is generated deterministically: "
            + "the same scenario, seed and version give the same bytes.</p></footer>\n");
  }



  private static String resource(String name) {
    try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
