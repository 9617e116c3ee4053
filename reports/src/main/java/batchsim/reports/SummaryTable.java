package batchsim.reports;

import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.model.Durations;
import batchsim.core.model.SimulationSpec;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The run summary for a terminal: header, per-ClusterQueue counts and wait times, utilization per
 * flavor and resource, and quota usage. Plain ASCII, no colours, "\n" line ends, at most ~100 columns
 * for typical names.
 */
public final class SummaryTable {
  private static final String INDENT = "  ";
  private static final int HASH_PREFIX = 12;

  private SummaryTable() {}

  public static String render(RunResult r, RunMetadata meta) {
    StringBuilder out = new StringBuilder(4096);
    header(out, r, meta);
    counts(out, r);
    waits(out, r);
    utilization(out, r);
    quotaUsage(out, r);
    preemption(out, r);
    pools(out, r);
    provisioning(out, r);
    serving(out, r);
    topology(out, r);
    clusters(out, r);
    return out.toString();
  }

  /** MultiKueue: per worker cluster, what MultiKueue did there and its own waits and utilization. */
  private static void clusters(StringBuilder out, RunResult r) {
    if (r.clusters().isEmpty()) {
      return;
    }
    TextTable t = new TextTable(1, "WORKER", "COPIES", "REMOVED", "WON", "FINISHED", "REQUEUED LOST",
        "DISCONNECTED", "RSV p50", "RSV p95", "UTIL");
    for (var c : r.clusters()) {
      Histogram rsv = c.result().overall().timeToReservation();
      t.row(c.name(), Formats.grouped(c.copiesCreated()), Formats.grouped(c.copiesRemoved()),
          Formats.grouped(c.won()), Formats.grouped(c.finished()), Formats.grouped(c.requeuedLost()),
          Formats.humanDuration(c.disconnectedMs()), pct(rsv, 50), pct(rsv, 95),
          ClustersSection.utilization(c.result().utilization()));
    }
    t.rule();
    String all = ClustersSection.utilization(ClustersJson.together(r.clusters()));
    t.row("all workers", "", "", "", "", "", "", "", "", all);
    section(out, "MultiKueue workers (the tables above are the manager's; WON = its copy admitted first; RSV here"
        + " = copy created to reserved on the worker)", t);
  }

  private static void header(StringBuilder out, RunResult r, RunMetadata meta) {
    out.append("batchsim ").append(orDash(meta.toolVersion()))
        .append(" | scenario ").append(orDash(r.scenarioName())).append('\n');
    String hash = meta.scenarioHash();
    String hashPrefix = hash == null ? "-" : hash.substring(0, Math.min(HASH_PREFIX, hash.length()));
    out.append(INDENT).append("file     ").append(orDash(meta.scenarioFile()))
        .append(" (sha256 ").append(hashPrefix).append(")\n");
    out.append(INDENT).append("seed     ").append(r.seed()).append('\n');
    out.append(INDENT).append("span     ").append(Durations.format(r.endTimeMs()));
    if (r.horizonMs() == SimulationSpec.NO_HORIZON) {
      out.append(" (no horizon)");
    } else {
      out.append(" (horizon ").append(Durations.format(r.horizonMs())).append(')');
    }
    out.append('\n');
    out.append(INDENT).append("events   ").append(Formats.grouped(r.events())).append('\n');
    if (r.unknownQueueArrivals() > 0) {
      out.append(INDENT).append("warning  arrivals to unknown LocalQueues: ")
          .append(Formats.grouped(r.unknownQueueArrivals())).append('\n');
    }
  }

  private static void counts(StringBuilder out, RunResult r) {
    TextTable t = new TextTable(1, "CLUSTER QUEUE", "ARRIVED", "ADMITTED", "FINISHED",
        "PENDING", "EVICTED", "PREEMPTED");
    for (QueueStats q : withOverall(r)) {
      if (q == r.overall()) {
        t.rule();
      }
      t.row(q.name(), Formats.grouped(q.arrived()), Formats.grouped(q.admitted()),
          Formats.grouped(q.finished()), Formats.grouped(q.pendingAtEnd()),
          Formats.grouped(q.evicted()), Formats.grouped(q.preempted()));
    }
    section(out, "Workloads (pending = still waiting for quota at the end)", t);
  }

  private static void waits(StringBuilder out, RunResult r) {
    TextTable t = new TextTable(1, "CLUSTER QUEUE", "RSV p50", "RSV p95", "RSV p99", "RSV max",
        "START p50", "START p95");
    for (QueueStats q : withOverall(r)) {
      if (q == r.overall()) {
        t.rule();
      }
      Histogram rsv = q.timeToReservation();
      Histogram start = q.timeToStart();
      t.row(q.name(), pct(rsv, 50), pct(rsv, 95), pct(rsv, 99), max(rsv), pct(start, 50),
          pct(start, 95));
    }
    section(out, "Wait times (RSV = created to quota reserved, START = created to running)", t);
  }

  private static void utilization(StringBuilder out, RunResult r) {
    TextTable t = new TextTable(3, "FLAVOR", "RESOURCE", "UNIT", "MEAN ALLOC", "MEAN CAPACITY",
        "UTIL", "PEAK");
    for (UtilizationStat u : r.utilization()) {
      String res = u.resource();
      t.row(u.flavor(), res, Units.unit(res), Units.display(res, u.meanAllocated()),
          Units.display(res, u.meanCapacity()), Formats.percent(u.utilization()),
          Units.displayAmount(res, u.peakAllocated()));
    }
    section(out, "Utilization (time-weighted means)", t);
  }

  private static void quotaUsage(StringBuilder out, RunResult r) {
    TextTable t = new TextTable(4, "CLUSTER QUEUE", "FLAVOR", "RESOURCE", "UNIT", "NOMINAL",
        "MEAN USED", "USED/NOM", "BORROWED", "PEAK");
    for (QueueUsageStat u : r.queueUsage()) {
      String res = u.resource();
      t.row(u.clusterQueue(), u.flavor(), res, Units.unit(res),
          Units.displayAmount(res, u.nominal()), Units.display(res, u.meanUsage()),
          Formats.percent(u.usageOverNominal()),
          Units.display(res, u.meanBorrowed()), Units.displayAmount(res, u.peakUsage()));
    }
    section(out, "Quota usage (time-weighted means; BORROWED = mean above nominal)", t);
  }

  /** Only when something was evicted: reasons, readmission latency and the work thrown away. */
  private static void preemption(StringBuilder out, RunResult r) {
    if (r.preemptionOverall() == null || r.overall() == null || r.overall().evicted() == 0) {
      return;
    }
    java.util.TreeSet<String> lostResources = new java.util.TreeSet<>(r.preemptionOverall().lostResourceMs().keySet());
    lostResources.remove("memory");
    lostResources.remove("pods");
    List<String> headers = new ArrayList<>(List.of("CLUSTER QUEUE", "PREEMPTED BY REASON", "REQUEUED",
        "READMIT p50", "READMIT p95"));
    for (String res : lostResources) {
      headers.add("LOST " + Units.hoursUnit(res));
    }
    TextTable t = new TextTable(2, headers.toArray(new String[0]));
    List<PreemptionStats> all = new ArrayList<>(r.preemption());
    all.add(r.preemptionOverall());
    for (PreemptionStats p : all) {
      if (p == r.preemptionOverall()) {
        t.rule();
      } else if (p.evictionsByReason().isEmpty()) {
        continue;
      }
      StringBuilder reasons = new StringBuilder();
      p.preemptionsByReason().forEach((k, v) -> reasons.append(reasons.length() == 0 ? "" : " ").append(k)
          .append('=').append(v));
      List<String> row = new ArrayList<>(List.of(p.name(), reasons.length() == 0 ? "-" : reasons.toString(),
          Formats.grouped(p.requeues()), pct(p.readmission(), 50), pct(p.readmission(), 95)));
      for (String res : lostResources) {
        row.add(Formats.fixed(Units.resourceHours(res, p.lostResourceMs().getOrDefault(res, 0.0)), 2));
      }
      t.row(row.toArray(new String[0]));
    }
    section(out, "Preemption (READMIT = eviction to quota reserved again; LOST = work discarded)", t);
    for (String w : PreemptionWarnings.of(r)) {
      out.append(INDENT).append("WARNING: ").append(w).append('\n');
    }
  }

  /** Only when nodes failed or changed: node-hours (what the pool cost), failures, failed node-hours. */
  private static void pools(StringBuilder out, RunResult r) {
    boolean eventful = r.pools().stream().anyMatch(p -> p.failures() > 0 || p.podsLost() > 0);
    if (!eventful) {
      return;
    }
    TextTable t = new TextTable(1, "NODE POOL", "NODES AT END", "NODE-HOURS", "FAILURES", "FAILED NODE-H",
        "PODS LOST");
    for (var p : r.pools()) {
      t.row(p.pool(), Formats.grouped(p.nodesAtEnd()), Formats.fixed(p.nodeHours(), 1),
          Formats.grouped(p.failures()), Formats.fixed(p.failedNodeHours(), 1), Formats.grouped(p.podsLost()));
    }
    section(out, "Nodes (node-hours = time-integral of nodes present)", t);
  }

  /** ProvisioningRequest checks and autoscaled pools: latency, failures, and the check part of the wait. */
  private static void provisioning(StringBuilder out, RunResult r) {
    var p = r.provisioning();
    if (p == null) {
      return;
    }
    TextTable t = new TextTable(0, "REQUESTS", "LATENCY p50", "LATENCY p95", "FAILED", "RETRIES", "REJECTED",
        "BOOKINGS EXPIRED", "CHECK WAIT p50", "CHECK WAIT p95", "NODES ADDED", "NODES REMOVED");
    t.row(Formats.grouped(p.requests()), pct(p.latency(), 50), pct(p.latency(), 95), Formats.grouped(p.failures()),
        Formats.grouped(p.retries()), Formats.grouped(p.rejected()), Formats.grouped(p.bookingsExpired()),
        pct(p.checkWait(), 50), pct(p.checkWait(), 95), Formats.grouped(p.nodesAdded()),
        Formats.grouped(p.nodesRemoved()));
    section(out, "Provisioning (ProvisioningRequest checks; CHECK WAIT = quota reserved to Admitted)", t);
  }

  /** Scale-to-zero Deployments: every scale-up's pods should run, whatever PodGroup deletion does. */
  private static void serving(StringBuilder out, RunResult r) {
    if (r.serving().isEmpty()) {
      return;
    }
    TextTable t = new TextTable(1, "DEPLOYMENT", "SCALE-UPS", "RAN", "DELETE ATTEMPTS", "RETRIES",
        "NEWER PODGROUP KEPT");
    for (var v : r.serving()) {
      t.row(v.name(), Formats.grouped(v.scaleUps()), Formats.grouped(v.scaleUpsRan()),
          Formats.grouped(v.deleteAttempts()), Formats.grouped(v.deleteRetries()),
          Formats.grouped(v.newerPodGroupsKept()));
    }
    section(out, "Serving (scale-to-zero churn; RAN = scale-ups whose pods all ran)", t);
  }

  /** Topology Aware Scheduling: time to admission with vs without a topology assignment; node repairs. */
  private static void topology(StringBuilder out, RunResult r) {
    var tas = r.tas();
    if (tas == null) {
      return;
    }
    TextTable t = new TextTable(1, "WORKLOADS", "ADMITTED", "RSV p50", "RSV p95", "RSV p99", "RSV max");
    for (var row : List.of(new Object[] {"TAS", tas.tasTimeToAdmission()},
        new Object[] {"non-TAS", tas.nonTasTimeToAdmission()})) {
      Histogram h = (Histogram) row[1];
      t.row((String) row[0], Formats.grouped(h.getTotalCount()), pct(h, 50), pct(h, 95), pct(h, 99), max(h));
    }
    section(out, "Topology (TAS = admitted with a topology assignment; RSV = created to first quota reserved)", t);
    out.append(INDENT).append("node failures: ").append(Formats.grouped(tas.nodeRepairs()))
        .append(" repaired in place (second pass), ").append(Formats.grouped(tas.nodeFailureEvictions()))
        .append(" evicted (NodeFailures)\n");
  }

  private static void section(StringBuilder out, String title, TextTable t) {
    out.append('\n').append(title).append('\n');
    if (t.isEmpty()) {
      out.append(INDENT).append("(none)\n");
    } else {
      t.render(out, INDENT);
    }
  }

  private static List<QueueStats> withOverall(RunResult r) {
    List<QueueStats> all = new ArrayList<>(r.queues());
    if (r.overall() != null) {
      all.add(r.overall());
    }
    return all;
  }

  private static String pct(Histogram h, double percentile) {
    return empty(h) ? "-" : Formats.humanDuration(h.getValueAtPercentile(percentile));
  }

  private static String max(Histogram h) {
    return empty(h) ? "-" : Formats.humanDuration(h.getMaxValue());
  }

  private static boolean empty(Histogram h) {
    return h == null || h.getTotalCount() == 0;
  }

  private static String orDash(String s) {
    return s == null || s.isEmpty() ? "-" : s;
  }
}
