package batchsim.reports;

import batchsim.core.metrics.ClusterResult;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.UtilizationStat;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * summary.json's {@code clusters}: MultiKueue's worker clusters, each with what MultiKueue did there and its
 * own counts, waits (as its Kueue saw the copies: copy created → reserved/started) and utilization, and the
 * utilization of all workers together. Written only for a manager's run; the top-level figures are the
 * manager's, which are the whole run's from its users' side (created on the manager → started on a worker).
 */
final class ClustersJson {
  private ClustersJson() {}

  static void write(JsonGenerator g, RunResult r) throws IOException {
    if (r.clusters().isEmpty()) {
      return;
    }
    g.writeArrayFieldStart("clusters");
    for (ClusterResult c : r.clusters()) {
      RunResult w = c.result();
      g.writeStartObject();
      g.writeStringField("name", c.name());
      g.writeStringField("role", "worker");
      g.writeNumberField("copies_created", c.copiesCreated());
      g.writeNumberField("copies_removed", c.copiesRemoved());
      g.writeNumberField("won", c.won());
      g.writeNumberField("finished", c.finished());
      g.writeNumberField("requeued_worker_lost", c.requeuedLost());
      g.writeNumberField("disconnected_ms", c.disconnectedMs());
      g.writeObjectFieldStart("counts");
      SummaryJson.writeCounts(g, w.overall());
      g.writeEndObject();
      g.writeFieldName("overall");
      SummaryJson.writeQueue(g, w.overall());
      utilization(g, "utilization", w.utilization(), true);
      g.writeEndObject();
    }
    g.writeEndArray();
    utilization(g, "workers_utilization", together(r.clusters()), false);
  }

  /** Every worker's nodes as one pool of capacity: allocated and capacity summed per flavor and resource. */
  static List<UtilizationStat> together(List<ClusterResult> clusters) {
    Map<String, UtilizationStat> sum = new LinkedHashMap<>();
    for (ClusterResult c : clusters) {
      for (UtilizationStat u : c.result().utilization()) {
        sum.merge(u.flavor() + "\n" + u.resource(), u, (a, b) -> {
          double alloc = a.meanAllocated() + b.meanAllocated();
          double cap = a.meanCapacity() + b.meanCapacity();
          return new UtilizationStat(a.flavor(), a.resource(), alloc, cap, cap == 0 ? 0 : alloc / cap,
              a.peakAllocated() + b.peakAllocated());
        });
      }
    }
    return List.copyOf(sum.values());
  }

  /** {@code peak}: the peak allocation too (not for workers together: their peaks need not coincide). */
  private static void utilization(JsonGenerator g, String field, List<UtilizationStat> stats, boolean peak)
      throws IOException {
    g.writeArrayFieldStart(field);
    for (UtilizationStat u : stats) {
      g.writeStartObject();
      g.writeStringField("flavor", u.flavor());
      g.writeStringField("resource", u.resource());
      SummaryJson.decimalField(g, "mean_allocated", u.meanAllocated(), 6);
      SummaryJson.decimalField(g, "mean_capacity", u.meanCapacity(), 6);
      SummaryJson.decimalField(g, "utilization", u.utilization(), 6);
      if (peak) {
        g.writeNumberField("peak_allocated", u.peakAllocated());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
  }
}
