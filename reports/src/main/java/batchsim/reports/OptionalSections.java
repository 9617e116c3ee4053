package batchsim.reports;

import static batchsim.reports.ReportBody.max;
import static batchsim.reports.ReportBody.pct;

import batchsim.core.metrics.PoolStats;
import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.ProvisioningStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.ServingStats;
import batchsim.core.metrics.TasStats;
import batchsim.core.model.ResourceSpace;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * The report sections shown only when the run has their data (preemption, fair sharing, nodes,
 * topology, provisioning, serving); each registers its link in the page's table of contents.
 */
final class OptionalSections {
  private final RunResult r;
  private final ReportCharts charts;
  private final ReportBody body;
  private final StringBuilder main;

  OptionalSections(RunResult r, ReportCharts charts, ReportBody body) {
    this.r = r;
    this.charts = charts;
    this.body = body;
    this.main = body.html();
  }

  /** Appends the sections that apply, in page order. */
  void write() {
    preemption();
    fairSharing();
    nodes();
    topology();
    provisioning();
    serving();
    ClustersSection.write(r, body);
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
    body.optionalSection("preemption", "Preemption",
        "Readmission = eviction → " + Words.of(r).reservedShort() + " again; lost = "
        + "work discarded by evicting running workloads, in resource-hours.");
    if (timeline) {
      body.figure(charts.evictions());
    } else if (!charts.hasTimeSeries()) {
      body.noTimeSeries("eviction timeline");
    }
    if (stats) {
      TreeSet<String> reasons = new TreeSet<>(all.evictionsByReason().keySet());
      TreeSet<String> lost = new TreeSet<>(all.lostResourceMs().keySet());
      lost.remove(ResourceSpace.MEMORY);
      lost.remove(ResourceSpace.PODS);
      List<String> headers = new ArrayList<>(List.of(Words.of(r).queue(), "Preemption reasons", "Evictions"));
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
      main.append("<h3 class=\"sub\">By ").append(Words.of(r).queue()).append("</h3>\n");
      body.table(t);
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
    body.optionalSection("fairsharing", "Fair sharing", "Kueue's dominant resource share (DRS) per "
        + "ClusterQueue, weighted, per mille; it is above 0 only while the queue borrows.");
    body.figure(charts.shares());
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
    body.optionalSection("nodes", "Nodes",
        "Per node pool. Node-hours = time-integral of nodes present "
        + "(what the pool costs); failed = NotReady.");
    if (drawn) {
      main.append("<div class=\"grid2\">\n");
      body.figure(charts.perQueue("nodes", "Nodes present", "per node pool, failed ones included", "nodes"));
      body.figure(charts.perQueue("failed", "Failed nodes", "NotReady, per node pool", "nodes"));
      main.append("</div>\n");
    } else if (!charts.hasTimeSeries()) {
      body.noTimeSeries("node count");
    }
    HtmlTable t = new HtmlTable(1, "Node pool", "Nodes at end", "Node-hours", "Failures",
        "Failed node-hours", "Pods lost");
    for (PoolStats p : r.pools()) {
      t.row(Html.esc(p.pool()), Formats.grouped(p.nodesAtEnd()), Formats.fixed(p.nodeHours(), 1),
          Formats.grouped(p.failures()), Formats.fixed(p.failedNodeHours(), 1),
          Formats.grouped(p.podsLost()));
    }
    body.table(t);
    main.append("</section>\n");
  }

  /** Only with a TAS flavor: time to admission with vs without a topology assignment, free domains. */
  private void topology() {
    TasStats tas = r.tas();
    if (tas == null) {
      return;
    }
    body.optionalSection("topology", "Topology", "Topology Aware Scheduling. TAS = admitted with a "
        + "topology assignment; Rsv = created → first quota reserved.");
    main.append("<div class=\"kpis\">\n");
    body.kpi("Node repairs", Formats.grouped(tas.nodeRepairs()), "failed nodes replaced in place");
    body.kpi("NodeFailures evictions", Formats.grouped(tas.nodeFailureEvictions()), "no replacement found");
    main.append("</div>\n");
    HtmlTable t = new HtmlTable(1, "Workloads", "Admitted", "Rsv p50", "Rsv p95", "Rsv p99", "Rsv max");
    t.row(tasCells("TAS", tas.tasTimeToAdmission()));
    t.row(tasCells("non-TAS", tas.nonTasTimeToAdmission()));
    body.table(t);
    if (charts.hasTimeSeries()) {
      List<ReportCharts.Figure> figs = charts.topology();
      if (!figs.isEmpty()) {
        main.append("<div class=\"grid2\">\n");
        for (ReportCharts.Figure f : figs) {
          body.figure(f);
        }
        main.append("</div>\n<p class=\"note\">Per-domain usage (<code>tasDomain:</code> columns) is in "
            + "timeseries.csv.</p>\n");
      }
    } else {
      body.noTimeSeries("free-domain count");
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
    body.optionalSection("provisioning", "Provisioning",
        "ProvisioningRequest admission checks. Latency = "
        + "request → Provisioned; check wait = quota reserved → Admitted.");
    HtmlTable t = new HtmlTable(0, "Requests", "Latency p50", "Latency p95", "Failed", "Retries",
        "Rejected", "Bookings expired", "Check wait p50", "Check wait p95", "Nodes added",
        "Nodes removed");
    t.row(Formats.grouped(p.requests()), pct(p.latency(), 50), pct(p.latency(), 95),
        Formats.grouped(p.failures()), Formats.grouped(p.retries()), Formats.grouped(p.rejected()),
        Formats.grouped(p.bookingsExpired()), pct(p.checkWait(), 50), pct(p.checkWait(), 95),
        Formats.grouped(p.nodesAdded()), Formats.grouped(p.nodesRemoved()));
    body.table(t);
    main.append("<div class=\"grid2\">\n");
    body.figure(PercentileCharts.provisioning(r.provisioning()));
    main.append("</div>\n");
    main.append("</section>\n");
  }

  /** Only with scale-to-zero serving Deployments. */
  private void serving() {
    if (r.serving() == null || r.serving().isEmpty()) {
      return;
    }
    body.optionalSection("serving", "Serving",
        "Scale-to-zero churn per Deployment; ran = scale-ups whose "
        + "pods all ran before the next scale-down.");
    HtmlTable t = new HtmlTable(1, "Deployment", "Scale-ups", "Ran", "Delete attempts", "Retries",
        "Newer PodGroup kept");
    for (ServingStats v : r.serving()) {
      t.row(Html.esc(v.name()), Formats.grouped(v.scaleUps()), Formats.grouped(v.scaleUpsRan()),
          Formats.grouped(v.deleteAttempts()), Formats.grouped(v.deleteRetries()),
          Formats.grouped(v.newerPodGroupsKept()));
    }
    body.table(t);
    main.append("</section>\n");
  }
}
