package batchsim.reports;

import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.model.Durations;
import batchsim.core.model.Quantity;
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
    return out.toString();
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
      t.row(u.flavor(), res, unit(res), display(res, u.meanAllocated()),
          display(res, u.meanCapacity()), Formats.percent(u.utilization()),
          displayAmount(res, u.peakAllocated()));
    }
    section(out, "Utilization (time-weighted means)", t);
  }

  private static void quotaUsage(StringBuilder out, RunResult r) {
    TextTable t = new TextTable(4, "CLUSTER QUEUE", "FLAVOR", "RESOURCE", "UNIT", "NOMINAL",
        "MEAN USED", "USED/NOM", "BORROWED", "PEAK");
    for (QueueUsageStat u : r.queueUsage()) {
      String res = u.resource();
      t.row(u.clusterQueue(), u.flavor(), res, unit(res), displayAmount(res, u.nominal()),
          display(res, u.meanUsage()), Formats.percent(u.usageOverNominal()),
          display(res, u.meanBorrowed()), displayAmount(res, u.peakUsage()));
    }
    section(out, "Quota usage (time-weighted means; BORROWED = mean above nominal)", t);
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

  private static String unit(String resource) {
    if (Quantity.isMilli(resource)) {
      return "cores";
    }
    return Quantity.isBytes(resource) ? "GiB" : "units";
  }

  /** A time-weighted mean, already in base units, shown in display units. */
  private static String display(String resource, double baseUnits) {
    double v = Quantity.isMilli(resource) ? baseUnits / 1000.0
        : Quantity.isBytes(resource) ? baseUnits / (double) (1L << 30) : baseUnits;
    return Formats.fixed(v, 2);
  }

  /** An exact amount (quota, peak): whole units stay whole, cores and GiB get two decimals. */
  private static String displayAmount(String resource, long baseUnits) {
    if (!Quantity.isMilli(resource) && !Quantity.isBytes(resource)) {
      return Formats.grouped(baseUnits);
    }
    return Formats.fixed(Quantity.toDisplayUnits(resource, baseUnits), 2);
  }

  private static String orDash(String s) {
    return s == null || s.isEmpty() ? "-" : s;
  }
}
