package batchsim.reports;

import static batchsim.reports.ReportBody.max;
import static batchsim.reports.ReportBody.mean;
import static batchsim.reports.ReportBody.meter;
import static batchsim.reports.ReportBody.pct;
import static batchsim.reports.ReportBody.swatch;

import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.UtilizationStat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The report sections every page has: workloads, wait times, utilization, quota usage, queues. */
final class StandardSections {
  private final RunResult r;
  private final ReportCharts charts;
  private final ReportBody body;
  private final StringBuilder main;
  private final Words w;

  StandardSections(RunResult r, ReportCharts charts, ReportBody body) {
    this.r = r;
    this.charts = charts;
    this.body = body;
    this.main = body.html();
    this.w = Words.of(r);
  }

  /** Appends the sections in page order. */
  void write(WorkloadGroups byPriority, WorkloadGroups byClass) {
    workloads();
    waits(byPriority, byClass);
    utilization();
    quotaUsage();
    queues();
  }

  private void workloads() {
    body.section("workloads", w.volcano() ? "PodGroups" : "Workloads", "Per " + w.queue()
        + ". Admissions count re-admissions after eviction; pending = still waiting "
        + (w.volcano() ? "for its gang to be bound" : "for quota") + " at the end.");
    HtmlTable t = new HtmlTable(1, w.queue(), "Arrived", "Admissions", "Finished",
        "Pending", w.volcano() ? "Bound, not running" : "Admitted, not running", "Running", "Evicted",
        "Preempted");
    for (QueueStats q : r.queues()) {
      t.row(countCells(q, Html.esc(q.name())));
    }
    if (r.overall() != null) {
      t.total(countCells(r.overall(), "All queues"));
    }
    body.table(t);
    main.append("</section>\n");
  }

  private static String[] countCells(QueueStats q, String name) {
    return new String[] {name, Formats.grouped(q.arrived()), Formats.grouped(q.admitted()),
        Formats.grouped(q.finished()), Formats.grouped(q.pendingAtEnd()),
        Formats.grouped(q.admittedAtEnd()), Formats.grouped(q.runningAtEnd()),
        Formats.grouped(q.evicted()), Formats.grouped(q.preempted())};
  }

  private void waits(WorkloadGroups byPriority, WorkloadGroups byClass) {
    body.section("waits", "Wait times",
        "Rsv = created → " + w.reservedShort() + " (first time); Start = created → "
        + w.started() + ". HDR percentiles of virtual time.");
    main.append("<div class=\"grid2\">\n");
    body.figure(PercentileCharts.queueWaits(r, false));
    body.figure(PercentileCharts.queueWaits(r, true));
    body.figure(PercentileCharts.groupWaits(byPriority, w.waitTitle() + ", by priority",
        w.reservedShort()));
    body.figure(PercentileCharts.groupWaits(byClass, w.waitTitle() + ", by workload class",
        w.reservedShort()));
    main.append("</div>\n");
    main.append("<h3 class=\"sub\">By ").append(w.queue()).append("</h3>\n");
    HtmlTable t = new HtmlTable(1, w.queue(), "Samples", "Rsv mean", "Rsv p50", "Rsv p90",
        "Rsv p95", "Rsv p99", "Rsv max", "Start p50", "Start p95", "Start p99");
    for (QueueStats q : r.queues()) {
      t.row(waitCells(q, Html.esc(q.name())));
    }
    if (r.overall() != null) {
      t.total(waitCells(r.overall(), "All queues"));
    }
    body.table(t);
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
    body.table(t);
    if (groups.hiddenGroups > 0) {
      main.append("<p class=\"note\">").append(Formats.grouped(groups.hiddenGroups))
          .append(" smaller groups with ").append(Formats.grouped(groups.hiddenWorkloads))
          .append(" workloads are not shown.</p>\n");
    }
  }

  private void utilization() {
    body.section("utilization", "Utilization", (w.volcano() ? "Allocated ÷ capacity of the nodes"
        : "Allocated ÷ capacity of the nodes each flavor stands for")
        + ", sampled; the table below holds the exact time-weighted means.");
    if (charts.hasTimeSeries()) {
      List<ReportCharts.Figure> figs = charts.utilization();
      if (!figs.isEmpty()) {
        body.figure(figs.get(0));
        main.append("<div class=\"grid2\">\n");
        for (ReportCharts.Figure f : figs.subList(1, figs.size())) {
          body.figure(f);
        }
        main.append("</div>\n");
      }
    } else {
      body.noTimeSeries("utilization");
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
    body.table(t);
    main.append("</section>\n");
  }

  private void quotaUsage() {
    body.section("quota", w.volcano() ? "Usage vs deserved" : "Quota usage", w.volcano()
        ? "Resources allocated to each Queue's PodGroups against its deserved share; usage above "
            + "deserved is borrowed from " + w.lender() + "."
        : "Quota reserved by admitted workloads against each ClusterQueue's nominal quota; usage above "
            + "nominal is borrowed from " + w.lender() + ".");
    if (!charts.hasTimeSeries()) {
      body.noTimeSeries("quota usage");
    } else {
      Map<String, List<ReportCharts.Figure>> byQueue = QuotaCharts.of(r, charts);
      List<String> unused = new ArrayList<>();
      String nominal = w.volcano() ? "deserved" : "nominal";
      for (QueueUsageStat u : r.queueUsage()) {
        if (u.peakUsage() == 0) {
          unused.add(u.clusterQueue() + " " + u.flavor() + " " + u.resource());
        }
      }
      main.append("<div class=\"legend static\">")
          .append(swatch(ReportCharts.USED_COLOR, "area", "used within " + nominal))
          .append(swatch(ReportCharts.BORROWED_COLOR, "area", "borrowed (above " + nominal + ")"))
          .append(swatch(ReportCharts.USED_COLOR, "line", "used"))
          .append(swatch(ReportCharts.NOMINAL_COLOR, "dash", w.nominal()))
          .append("</div>\n");
      List<String> queues = new ArrayList<>(byQueue.keySet());
      double[] peak = peakOverNominal(queues);
      Palette.Selection open = Palette.top(peak);
      for (int q = 0; q < queues.size(); q++) {
        main.append(open.shown().contains(q) ? "<details open><summary>" : "<details><summary>")
            .append(Html.esc(queues.get(q)));
        if (Double.isFinite(peak[q])) {
          main.append(" <span class=\"muted\">peak ").append(Formats.percent(peak[q])).append(" of ")
              .append(nominal).append("</span>");
        }
        main.append("</summary>\n<div class=\"grid3\">\n");
        for (ReportCharts.Figure f : byQueue.get(queues.get(q))) {
          body.figure(f);
        }
        main.append("</div></details>\n");
      }
      if (!open.rest().isEmpty()) {
        main.append("<p class=\"note\">").append(open.rest().size()).append(" more ").append(w.queue())
            .append("s with a lower peak against ").append(nominal)
            .append(" are collapsed; click a name to open it.</p>\n");
      }
      if (!unused.isEmpty()) {
        main.append("<p class=\"note\">Never used, not drawn: ")
            .append(Html.esc(String.join(", ", unused))).append(".</p>\n");
      }
    }
    main.append("<h3 class=\"sub\">Time-weighted means</h3>\n");
    String nom = w.volcano() ? "Deserved" : "Nominal";
    HtmlTable t = new HtmlTable(4, w.queue(), "Flavor", "Resource", "Unit", nom,
        "Mean used", "Used / " + nom.toLowerCase(java.util.Locale.ROOT), "Mean borrowed", "Peak");
    for (QueueUsageStat u : r.queueUsage()) {
      String res = u.resource();
      t.row(Html.esc(u.clusterQueue()), Html.esc(u.flavor()), Html.esc(res), Units.unit(res),
          Units.displayAmount(res, u.nominal()), Units.display(res, u.meanUsage()),
          meter(u.usageOverNominal()) + Formats.percent(u.usageOverNominal()),
          Units.display(res, u.meanBorrowed()), Units.displayAmount(res, u.peakUsage()));
    }
    body.table(t);
    main.append("</section>\n");
  }

  /** Per queue, its highest peak usage ÷ nominal over flavors and resources (NaN without nominal). */
  private double[] peakOverNominal(List<String> queues) {
    double[] peak = new double[queues.size()];
    java.util.Arrays.fill(peak, Double.NaN);
    for (QueueUsageStat u : r.queueUsage()) {
      int q = queues.indexOf(u.clusterQueue());
      if (q >= 0 && u.nominal() > 0) {
        double v = (double) u.peakUsage() / u.nominal();
        peak[q] = Double.isNaN(peak[q]) ? v : Math.max(peak[q], v);
      }
    }
    return peak;
  }

  private void queues() {
    body.section("queues", "Queues over time", "Sampled " + w.workloads() + " per " + w.queue() + ".");
    if (charts.hasTimeSeries()) {
      main.append("<div class=\"grid2\">\n");
      if (w.volcano()) {
        body.figure(charts.perQueue("pending", "Pending PodGroups", "not yet Inqueue", "PodGroups"));
        body.figure(charts.perQueue("inqueue", "Inqueue PodGroups", "passed enqueue, gang not yet bound",
            "PodGroups"));
        body.figure(charts.perQueue("holding", "PodGroups bound", "gang bound, until finished or evicted",
            "PodGroups"));
      } else {
        body.figure(charts.perQueue("pending", "Pending workloads", "waiting for quota", "workloads"));
        body.figure(charts.perQueue("holding", "Workloads holding quota", "quota reserved, until finished "
            + "or evicted", "workloads"));
      }
      main.append("</div>\n");
    } else {
      body.noTimeSeries("queue depth");
    }
    main.append("</section>\n");
  }
}
