package batchsim.reports;

import batchsim.core.metrics.PoolStats;
import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.ProvisioningStats;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.ServingStats;
import batchsim.core.metrics.TasStats;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.model.Durations;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.SimulationSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
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
  private static final String CSS = resource("report.css");
  private static final String JS = resource("report.js");

  private final RunResult r;
  private final RunMetadata meta;
  private final String digest;
  private final ReportCharts charts;
  private final StringBuilder main = new StringBuilder(1 << 16);
  private int figures;
  /** {id, title} of the sections shown only when the run has their data, in page order. */
  private final List<String[]> optional = new ArrayList<>();

  private HtmlReport(RunResult r, RunMetadata meta, String digest) {
    this.r = r;
    this.meta = meta;
    this.digest = digest;
    this.charts = new ReportCharts(r);
  }

  /** Writes the page to {@code out}, which is flushed but left open. */
  static void write(RunResult r, RunMetadata meta, String workloadsDigest, OutputStream out)
      throws IOException {
    out.write(render(r, meta, workloadsDigest).getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  static String render(RunResult r, RunMetadata meta, String workloadsDigest) {
    return new HtmlReport(r, meta, workloadsDigest).page();
  }

  private String page() {
    WorkloadGroups byPriority = WorkloadGroups.byPriority(r.workloads(), GROUP_LIMIT);
    WorkloadGroups byClass = WorkloadGroups.byClass(r.workloads(), GROUP_LIMIT);
    kpis();
    workloads();
    waits(byPriority, byClass);
    utilization();
    quotaUsage();
    queues();
    preemption();
    fairSharing();
    nodes();
    topology();
    provisioning();
    serving();

    StringBuilder out = new StringBuilder(main.length() + CSS.length() + JS.length() + 4096);
    out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<meta name=\"generator\" content=\"batchsim ")
        .append(Html.orDash(meta.toolVersion())).append("\">\n<title>")
        .append(Html.orDash(r.scenarioName())).append(" · batchsim report</title>\n<style>\n")
        .append(CSS).append("</style>\n</head>\n<body data-charts=\"").append(figures).append("\">\n");
    header(out);
    out.append("<nav class=\"toc wrap\"><a href=\"#workloads\">Workloads</a>")
        .append("<a href=\"#waits\">Wait times</a><a href=\"#utilization\">Utilization</a>")
        .append("<a href=\"#quota\">Quota usage</a><a href=\"#queues\">Queues over time</a>");
    for (String[] link : optional) {
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
    meta(out, "Tool", "batchsim " + Html.orDash(meta.toolVersion()));
    out.append("</dl>\n");
    if (r.unknownQueueArrivals() > 0) {
      out.append("<p class=\"warn\">").append(Formats.grouped(r.unknownQueueArrivals()))
          .append(" arrivals went to unknown LocalQueues and were never queued.</p>\n");
    }
    for (String w : PreemptionWarnings.of(r)) {
      out.append("<p class=\"warn\">").append(Html.esc(w)).append(".</p>\n");
    }
    out.append("</div></header>\n");
  }

  private static void meta(StringBuilder out, String term, String html) {
    out.append("<div><dt>").append(term).append("</dt><dd>").append(html).append("</dd></div>\n");
  }

  private void kpis() {
    QueueStats all = r.overall();
    main.append("<section class=\"kpis\">\n");
    if (all != null) {
      kpi("Workloads", Formats.grouped(all.arrived()), Formats.grouped(all.finished())
          + " finished · " + Formats.grouped(all.pendingAtEnd()) + " pending");
      Histogram rsv = all.timeToReservation();
      kpi("Wait to reservation", pct(rsv, 50) + "<small>p50</small>",
          "p99 " + pct(rsv, 99) + " · max " + max(rsv));
      Histogram start = all.timeToStart();
      kpi("Time to start", pct(start, 50) + "<small>p50</small>",
          "p99 " + pct(start, 99) + " · max " + max(start));
      kpi("Evictions", Formats.grouped(all.evicted()),
          Formats.grouped(all.preempted()) + " by preemption");
    }
    StringBuilder util = new StringBuilder();
    for (UtilizationStat u : r.utilization()) {
      if (UtilizationStat.ALL_NODES.equals(u.flavor()) && u.meanCapacity() > 0
          && !ResourceSpace.PODS.equals(u.resource())) {
        util.append("<div class=\"mrow\"><span>").append(Html.esc(u.resource())).append("</span>")
            .append(meter(u.utilization())).append("<b>").append(Formats.percent(u.utilization()))
            .append("</b></div>");
      }
    }
    if (util.length() > 0) {
      main.append("<div class=\"kpi wide\"><h3>Cluster utilization</h3>").append(util)
          .append("<p>time-weighted, all nodes</p></div>\n");
    }
    main.append("</section>\n");
  }

  private void kpi(String title, String value, String sub) {
    main.append("<div class=\"kpi\"><h3>").append(title).append("</h3><div class=\"v\">")
        .append(value).append("</div><p>").append(sub).append("</p></div>\n");
  }

  private void workloads() {
    section("workloads", "Workloads", "Per ClusterQueue. Admissions count re-admissions after "
        + "eviction; pending = still waiting for quota at the end.");
    HtmlTable t = new HtmlTable(1, "ClusterQueue", "Arrived", "Admissions", "Finished",
        "Pending", "Admitted, not running", "Running", "Evicted", "Preempted");
    for (QueueStats q : r.queues()) {
      t.row(countCells(q, Html.esc(q.name())));
    }
    if (r.overall() != null) {
      t.total(countCells(r.overall(), "All queues"));
    }
    table(t);
    main.append("</section>\n");
  }

  private static String[] countCells(QueueStats q, String name) {
    return new String[] {name, Formats.grouped(q.arrived()), Formats.grouped(q.admitted()),
        Formats.grouped(q.finished()), Formats.grouped(q.pendingAtEnd()),
        Formats.grouped(q.admittedAtEnd()), Formats.grouped(q.runningAtEnd()),
        Formats.grouped(q.evicted()), Formats.grouped(q.preempted())};
  }

  private void waits(WorkloadGroups byPriority, WorkloadGroups byClass) {
    section("waits", "Wait times", "Rsv = created → quota reserved (first time); Start = created → "
        + "all pods running. HDR percentiles of virtual time.");
    main.append("<div class=\"grid2\">\n");
    figure(PercentileCharts.queueWaits(r, false));
    figure(PercentileCharts.queueWaits(r, true));
    figure(PercentileCharts.groupWaits(byPriority, "Time to reservation, by priority"));
    figure(PercentileCharts.groupWaits(byClass, "Time to reservation, by workload class"));
    main.append("</div>\n");
    main.append("<h3 class=\"sub\">By ClusterQueue</h3>\n");
    HtmlTable t = new HtmlTable(1, "ClusterQueue", "Samples", "Rsv mean", "Rsv p50", "Rsv p90",
        "Rsv p95", "Rsv p99", "Rsv max", "Start p50", "Start p95", "Start p99");
    for (QueueStats q : r.queues()) {
      t.row(waitCells(q, Html.esc(q.name())));
    }
    if (r.overall() != null) {
      t.total(waitCells(r.overall(), "All queues"));
    }
    table(t);
    groupTable("By priority", "Priority", byPriority);
    groupTable("By workload class", "Class", byClass);
    main.append("</section>\n");
  }

  private static String[] waitCells(QueueStats q, String name) {
    Histogram h = q.timeToReservation();
    Histogram s = q.timeToStart();
    return new String[] {name, Formats.grouped(h == null ? 0 : h.getTotalCount()), mean(h),
        pct(h, 50), pct(h, 90), pct(h, 95), pct(h, 99), max(h), pct(s, 50), pct(s, 95),
        pct(s, 99)};
  }

  private void groupTable(String title, String keyHeader, WorkloadGroups groups) {
    main.append("<h3 class=\"sub\">").append(title).append("</h3>\n");
    HtmlTable t = new HtmlTable(1, keyHeader, "Workloads", "Never reserved", "Rsv p50", "Rsv p90",
        "Rsv p99", "Rsv max", "Start p50", "Start p99", "Evicted workloads", "Evictions",
        "Preemptions");
    for (WorkloadGroups.Group g : groups.shown) {
      Histogram h = g.reservation;
      t.row(Html.esc(g.label), Formats.grouped(g.workloads), Formats.grouped(g.neverReserved),
          pct(h, 50), pct(h, 90), pct(h, 99), max(h), pct(g.start, 50), pct(g.start, 99),
          Formats.grouped(g.evictedWorkloads), Formats.grouped(g.evictions),
          Formats.grouped(g.preemptions));
    }
    table(t);
    if (groups.hiddenGroups > 0) {
      main.append("<p class=\"note\">").append(Formats.grouped(groups.hiddenGroups))
          .append(" smaller groups with ").append(Formats.grouped(groups.hiddenWorkloads))
          .append(" workloads are not shown.</p>\n");
    }
  }

  private void utilization() {
    section("utilization", "Utilization", "Allocated ÷ capacity of the nodes each flavor stands "
        + "for, sampled; the table below holds the exact time-weighted means.");
    if (charts.hasTimeSeries()) {
      List<ReportCharts.Figure> figs = charts.utilization();
      if (!figs.isEmpty()) {
        figure(figs.get(0));
        main.append("<div class=\"grid2\">\n");
        for (ReportCharts.Figure f : figs.subList(1, figs.size())) {
          figure(f);
        }
        main.append("</div>\n");
      }
    } else {
      noTimeSeries("utilization");
    }
    main.append("<h3 class=\"sub\">Time-weighted means</h3>\n");
    HtmlTable t = new HtmlTable(3, "Flavor", "Resource", "Unit", "Mean allocated", "Mean capacity",
        "Utilization", "Peak allocated");
    for (UtilizationStat u : r.utilization()) {
      String res = u.resource();
      t.row(UtilizationStat.ALL_NODES.equals(u.flavor()) ? "all nodes" : Html.esc(u.flavor()),
          Html.esc(res), Units.unit(res), Units.display(res, u.meanAllocated()),
          Units.display(res, u.meanCapacity()),
          meter(u.utilization()) + Formats.percent(u.utilization()),
          Units.displayAmount(res, u.peakAllocated()));
    }
    table(t);
    main.append("</section>\n");
  }

  private void quotaUsage() {
    section("quota", "Quota usage", "Quota reserved by admitted workloads against each "
        + "ClusterQueue's nominal quota; usage above nominal is borrowed from the cohort.");
    if (!charts.hasTimeSeries()) {
      noTimeSeries("quota usage");
    } else {
      Map<String, List<ReportCharts.Figure>> byQueue = QuotaCharts.of(r, charts);
      List<String> unused = new ArrayList<>();
      for (QueueUsageStat u : r.queueUsage()) {
        if (u.peakUsage() == 0) {
          unused.add(u.clusterQueue() + " " + u.flavor() + " " + u.resource());
        }
      }
      main.append("<div class=\"legend static\">")
          .append(swatch(ReportCharts.USED_COLOR, "area", "used within nominal"))
          .append(swatch(ReportCharts.BORROWED_COLOR, "area", "borrowed (above nominal)"))
          .append(swatch(ReportCharts.USED_COLOR, "line", "used"))
          .append(swatch(ReportCharts.NOMINAL_COLOR, "dash", "nominal quota"))
          .append("</div>\n");
      for (Map.Entry<String, List<ReportCharts.Figure>> e : byQueue.entrySet()) {
        main.append("<details open><summary>").append(Html.esc(e.getKey())).append("</summary>\n")
            .append("<div class=\"grid3\">\n");
        for (ReportCharts.Figure f : e.getValue()) {
          figure(f);
        }
        main.append("</div></details>\n");
      }
      if (!unused.isEmpty()) {
        main.append("<p class=\"note\">Never used, not drawn: ")
            .append(Html.esc(String.join(", ", unused))).append(".</p>\n");
      }
    }
    main.append("<h3 class=\"sub\">Time-weighted means</h3>\n");
    HtmlTable t = new HtmlTable(4, "ClusterQueue", "Flavor", "Resource", "Unit", "Nominal",
        "Mean used", "Used / nominal", "Mean borrowed", "Peak");
    for (QueueUsageStat u : r.queueUsage()) {
      String res = u.resource();
      t.row(Html.esc(u.clusterQueue()), Html.esc(u.flavor()), Html.esc(res), Units.unit(res),
          Units.displayAmount(res, u.nominal()), Units.display(res, u.meanUsage()),
          meter(u.usageOverNominal()) + Formats.percent(u.usageOverNominal()),
          Units.display(res, u.meanBorrowed()), Units.displayAmount(res, u.peakUsage()));
    }
    table(t);
    main.append("</section>\n");
  }

  private void queues() {
    section("queues", "Queues over time", "Sampled workload counts per ClusterQueue.");
    if (charts.hasTimeSeries()) {
      main.append("<div class=\"grid2\">\n");
      figure(charts.perQueue("pending", "Pending workloads", "waiting for quota", "workloads"));
      figure(charts.perQueue("holding", "Workloads holding quota", "quota reserved, until finished "
          + "or evicted", "workloads"));
      main.append("</div>\n");
    } else {
      noTimeSeries("queue depth");
    }
    main.append("</section>\n");
  }

  /**
   * Only when something was evicted: per ClusterQueue evictions by reason, requeues, readmission
   * latency and the work thrown away, and the evictions placed in time by the cumulative columns.
   */
  private void preemption() {
    PreemptionStats all = r.preemptionOverall();
    boolean stats = all != null && !all.evictionsByReason().isEmpty();
    boolean timeline = charts.hasEvictionTimes() && r.overall() != null && r.overall().evicted() > 0;
    if (!stats && !timeline) {
      return;
    }
    optionalSection("preemption", "Preemption", "Readmission = eviction → quota reserved again; lost = "
        + "work discarded by evicting running workloads, in resource-hours.");
    if (timeline) {
      figure(charts.evictions());
    } else if (!charts.hasTimeSeries()) {
      noTimeSeries("eviction timeline");
    }
    if (stats) {
      TreeSet<String> reasons = new TreeSet<>(all.evictionsByReason().keySet());
      TreeSet<String> lost = new TreeSet<>(all.lostResourceMs().keySet());
      lost.remove(ResourceSpace.MEMORY);
      lost.remove(ResourceSpace.PODS);
      List<String> headers = new ArrayList<>(List.of("ClusterQueue", "Preemption reasons", "Evictions"));
      for (String reason : reasons) {
        headers.add(Html.esc(reason));
      }
      headers.addAll(List.of("Requeues", "Readmit p50", "Readmit p95"));
      for (String res : lost) {
        headers.add("Lost " + Html.esc(Units.hoursUnit(res)));
      }
      HtmlTable t = new HtmlTable(2, headers.toArray(new String[0]));
      for (PreemptionStats p : r.preemption()) {
        if (!p.evictionsByReason().isEmpty()) {
          t.row(preemptionCells(p, Html.esc(p.name()), reasons, lost));
        }
      }
      t.total(preemptionCells(all, "All queues", reasons, lost));
      main.append("<h3 class=\"sub\">By ClusterQueue</h3>\n");
      table(t);
    }
    main.append("</section>\n");
  }

  private static String[] preemptionCells(PreemptionStats p, String name, TreeSet<String> reasons,
      TreeSet<String> lost) {
    StringBuilder why = new StringBuilder();
    p.preemptionsByReason().forEach((k, v) -> why.append(why.length() == 0 ? "" : " · ")
        .append(Html.esc(k)).append(' ').append(Formats.grouped(v)));
    long evictions = 0;
    for (long v : p.evictionsByReason().values()) {
      evictions += v;
    }
    List<String> row = new ArrayList<>(List.of(name, why.length() == 0 ? "-" : why.toString(),
        Formats.grouped(evictions)));
    for (String reason : reasons) {
      row.add(Formats.grouped(p.evictionsByReason().getOrDefault(reason, 0L)));
    }
    row.addAll(List.of(Formats.grouped(p.requeues()), pct(p.readmission(), 50),
        pct(p.readmission(), 95)));
    for (String res : lost) {
      row.add(Formats.fixed(Units.resourceHours(res, p.lostResourceMs().getOrDefault(res, 0.0)), 2));
    }
    return row.toArray(new String[0]);
  }

  /** Only when some ClusterQueue borrowed under fair sharing (a non-zero share in some sample). */
  private void fairSharing() {
    if (!charts.hasShares()) {
      return;
    }
    optionalSection("fairsharing", "Fair sharing", "Kueue's dominant resource share (DRS) per "
        + "ClusterQueue, weighted, per mille; it is above 0 only while the queue borrows.");
    figure(charts.shares());
    main.append("</section>\n");
  }

  /** Only when nodes failed, lost pods, or the node count changed (autoscaling, removal). */
  private void nodes() {
    boolean eventful = false;
    for (PoolStats p : r.pools()) {
      eventful |= p.failures() > 0 || p.podsLost() > 0;
    }
    boolean drawn = charts.nodesChanged();
    if (!eventful && !drawn) {
      return;
    }
    optionalSection("nodes", "Nodes", "Per node pool. Node-hours = time-integral of nodes present "
        + "(what the pool costs); failed = NotReady.");
    if (drawn) {
      main.append("<div class=\"grid2\">\n");
      figure(charts.perQueue("nodes", "Nodes present", "per node pool, failed ones included", "nodes"));
      figure(charts.perQueue("failed", "Failed nodes", "NotReady, per node pool", "nodes"));
      main.append("</div>\n");
    } else if (!charts.hasTimeSeries()) {
      noTimeSeries("node count");
    }
    HtmlTable t = new HtmlTable(1, "Node pool", "Nodes at end", "Node-hours", "Failures",
        "Failed node-hours", "Pods lost");
    for (PoolStats p : r.pools()) {
      t.row(Html.esc(p.pool()), Formats.grouped(p.nodesAtEnd()), Formats.fixed(p.nodeHours(), 1),
          Formats.grouped(p.failures()), Formats.fixed(p.failedNodeHours(), 1),
          Formats.grouped(p.podsLost()));
    }
    table(t);
    main.append("</section>\n");
  }

  /** Only with a TAS flavor: time to admission with vs without a topology assignment, free domains. */
  private void topology() {
    TasStats tas = r.tas();
    if (tas == null) {
      return;
    }
    optionalSection("topology", "Topology", "Topology Aware Scheduling. TAS = admitted with a "
        + "topology assignment; Rsv = created → first quota reserved.");
    main.append("<div class=\"kpis\">\n");
    kpi("Node repairs", Formats.grouped(tas.nodeRepairs()), "failed nodes replaced in place");
    kpi("NodeFailures evictions", Formats.grouped(tas.nodeFailureEvictions()), "no replacement found");
    main.append("</div>\n");
    HtmlTable t = new HtmlTable(1, "Workloads", "Admitted", "Rsv p50", "Rsv p95", "Rsv p99", "Rsv max");
    t.row(tasCells("TAS", tas.tasTimeToAdmission()));
    t.row(tasCells("non-TAS", tas.nonTasTimeToAdmission()));
    table(t);
    if (charts.hasTimeSeries()) {
      List<ReportCharts.Figure> figs = charts.topology();
      if (!figs.isEmpty()) {
        main.append("<div class=\"grid2\">\n");
        for (ReportCharts.Figure f : figs) {
          figure(f);
        }
        main.append("</div>\n<p class=\"note\">Per-domain usage (<code>tasDomain:</code> columns) is in "
            + "timeseries.csv.</p>\n");
      }
    } else {
      noTimeSeries("free-domain count");
    }
    main.append("</section>\n");
  }

  private static String[] tasCells(String name, Histogram h) {
    return new String[] {name, Formats.grouped(h == null ? 0 : h.getTotalCount()), pct(h, 50),
        pct(h, 95), pct(h, 99), max(h)};
  }

  /** Only with ProvisioningRequest admission checks: requests, outcomes, latency and check wait. */
  private void provisioning() {
    ProvisioningStats p = r.provisioning();
    if (p == null) {
      return;
    }
    optionalSection("provisioning", "Provisioning", "ProvisioningRequest admission checks. Latency = "
        + "request → Provisioned; check wait = quota reserved → Admitted.");
    HtmlTable t = new HtmlTable(0, "Requests", "Latency p50", "Latency p95", "Failed", "Retries",
        "Rejected", "Bookings expired", "Check wait p50", "Check wait p95", "Nodes added",
        "Nodes removed");
    t.row(Formats.grouped(p.requests()), pct(p.latency(), 50), pct(p.latency(), 95),
        Formats.grouped(p.failures()), Formats.grouped(p.retries()), Formats.grouped(p.rejected()),
        Formats.grouped(p.bookingsExpired()), pct(p.checkWait(), 50), pct(p.checkWait(), 95),
        Formats.grouped(p.nodesAdded()), Formats.grouped(p.nodesRemoved()));
    table(t);
    main.append("<div class=\"grid2\">\n");
    figure(PercentileCharts.provisioning(r.provisioning()));
    main.append("</div>\n");
    main.append("</section>\n");
  }

  /** Only with scale-to-zero serving Deployments. */
  private void serving() {
    if (r.serving() == null || r.serving().isEmpty()) {
      return;
    }
    optionalSection("serving", "Serving", "Scale-to-zero churn per Deployment; ran = scale-ups whose "
        + "pods all ran before the next scale-down.");
    HtmlTable t = new HtmlTable(1, "Deployment", "Scale-ups", "Ran", "Delete attempts", "Retries",
        "Newer PodGroup kept");
    for (ServingStats v : r.serving()) {
      t.row(Html.esc(v.name()), Formats.grouped(v.scaleUps()), Formats.grouped(v.scaleUpsRan()),
          Formats.grouped(v.deleteAttempts()), Formats.grouped(v.deleteRetries()),
          Formats.grouped(v.newerPodGroupsKept()));
    }
    table(t);
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

  private void section(String id, String title, String lead) {
    main.append("<section id=\"").append(id).append("\">\n<h2>").append(title).append("</h2>\n");
    if (lead != null) {
      main.append("<p class=\"lead\">").append(lead).append("</p>\n");
    }
  }

  private void optionalSection(String id, String title, String lead) {
    optional.add(new String[] {id, title});
    section(id, title, lead);
  }

  private void table(HtmlTable t) {
    if (t.isEmpty()) {
      main.append("<p class=\"note\">(none)</p>\n");
    } else {
      t.render(main);
    }
  }

  private void figure(ReportCharts.Figure f) {
    figures++;
    f.chart().render(main, "c" + figures, f.title(), f.subtitle());
  }

  private void noTimeSeries(String what) {
    main.append("<div class=\"notice\"><b>No time series.</b> This run took no samples ")
        .append("(<code>sampleInterval</code> is 0), so there is no ").append(what)
        .append(" over time to draw. Set e.g. <code>sampleInterval: 5m</code> in the scenario.")
        .append("</div>\n");
  }

  private static String swatch(String color, String style, String label) {
    return "<span><i class=\"sw " + style + "\" style=\"--c:" + color + "\"></i>" + label
        + "</span>";
  }

  /** A small horizontal bar for a ratio, capped at 100 %; nothing for undefined ratios. */
  private static String meter(double ratio) {
    if (!Double.isFinite(ratio)) {
      return "";
    }
    double w = Math.max(0, Math.min(1, ratio)) * 100;
    return "<span class=\"meter" + (ratio > 1 ? " over" : "") + "\"><span style=\"width:"
        + Formats.fixed(w, 1) + "%\"></span></span>";
  }

  private static String pct(Histogram h, double p) {
    return empty(h) ? "-" : Formats.humanDuration(h.getValueAtPercentile(p));
  }

  private static String max(Histogram h) {
    return empty(h) ? "-" : Formats.humanDuration(h.getMaxValue());
  }

  private static String mean(Histogram h) {
    return empty(h) ? "-" : Formats.humanDuration(Math.round(h.getMean()));
  }

  private static boolean empty(Histogram h) {
    return h == null || h.getTotalCount() == 0;
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
