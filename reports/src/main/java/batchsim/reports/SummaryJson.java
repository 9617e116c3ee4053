package batchsim.reports;

import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.model.SimulationSpec;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import java.io.IOException;
import java.math.BigDecimal;
import java.io.OutputStream;
import org.HdrHistogram.Histogram;

/**
 * summary.json, written field by field so that the key order is fixed by this code, not by a mapper.
 * Units are in the key names; doubles are rounded to 6 decimals (latency means to 3).
 */
final class SummaryJson {
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
      .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
      .build();
  private static final double[] PERCENTILES = {50, 90, 95, 99};
  private static final String[] PERCENTILE_KEYS = {"p50", "p90", "p95", "p99"};

  private SummaryJson() {}

  /** Writes the summary to {@code out}, which is flushed but left open. */
  static void write(RunResult r, RunMetadata meta, String workloadsDigest, OutputStream out)
      throws IOException {
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.setPrettyPrinter(prettyPrinter());
      g.writeStartObject();

      g.writeObjectFieldStart("tool");
      g.writeStringField("name", "batchsim");
      g.writeStringField("version", meta.toolVersion());
      g.writeEndObject();

      g.writeObjectFieldStart("scenario");
      g.writeStringField("name", r.scenarioName());
      g.writeStringField("file", meta.scenarioFile());
      g.writeStringField("sha256", meta.scenarioHash());
      g.writeEndObject();
      ProvenanceJson.write(g, meta, r.seed());

      g.writeNumberField("seed", r.seed());
      g.writeFieldName("horizon_ms");
      if (r.horizonMs() == SimulationSpec.NO_HORIZON) {
        g.writeNull();
      } else {
        g.writeNumber(r.horizonMs());
      }
      g.writeNumberField("end_time_ms", r.endTimeMs());
      g.writeNumberField("events", r.events());

      QueueStats all = r.overall();
      g.writeObjectFieldStart("counts");
      writeCounts(g, all);
      g.writeNumberField("unknown_queue_arrivals", r.unknownQueueArrivals());
      g.writeEndObject();

      g.writeArrayFieldStart("queues");
      for (QueueStats q : r.queues()) {
        writeQueue(g, q);
      }
      g.writeEndArray();

      g.writeFieldName("overall");
      writeQueue(g, all);

      g.writeArrayFieldStart("utilization");
      for (UtilizationStat u : r.utilization()) {
        g.writeStartObject();
        g.writeStringField("flavor", u.flavor());
        g.writeStringField("resource", u.resource());
        decimalField(g, "mean_allocated", u.meanAllocated(), 6);
        decimalField(g, "mean_capacity", u.meanCapacity(), 6);
        decimalField(g, "utilization", u.utilization(), 6);
        g.writeNumberField("peak_allocated", u.peakAllocated());
        g.writeEndObject();
      }
      g.writeEndArray();

      g.writeArrayFieldStart("queue_usage");
      for (QueueUsageStat u : r.queueUsage()) {
        g.writeStartObject();
        g.writeStringField("cluster_queue", u.clusterQueue());
        g.writeStringField("flavor", u.flavor());
        g.writeStringField("resource", u.resource());
        g.writeNumberField("nominal", u.nominal());
        decimalField(g, "mean_usage", u.meanUsage(), 6);
        decimalField(g, "usage_over_nominal", u.usageOverNominal(), 6);
        decimalField(g, "mean_borrowed", u.meanBorrowed(), 6);
        g.writeNumberField("peak_usage", u.peakUsage());
        g.writeEndObject();
      }
      g.writeEndArray();

      if (r.preemptionOverall() != null) {
        g.writeArrayFieldStart("preemption");
        for (PreemptionStats p : r.preemption()) {
          writePreemption(g, p);
        }
        writePreemption(g, r.preemptionOverall());
        g.writeEndArray();
      }

      g.writeArrayFieldStart("node_pools");
      for (var p : r.pools()) {
        g.writeStartObject();
        g.writeStringField("pool", p.pool());
        g.writeNumberField("nodes_at_end", p.nodesAtEnd());
        decimalField(g, "node_hours", p.nodeHours(), 6);
        g.writeNumberField("failures", p.failures());
        decimalField(g, "failed_node_hours", p.failedNodeHours(), 6);
        g.writeNumberField("pods_lost", p.podsLost());
        g.writeEndObject();
      }
      g.writeEndArray();
      if (r.provisioning() != null) {
        var p = r.provisioning();
        g.writeObjectFieldStart("provisioning");
        g.writeNumberField("requests", p.requests());
        g.writeNumberField("failures", p.failures());
        g.writeNumberField("retries", p.retries());
        g.writeNumberField("rejected", p.rejected());
        g.writeNumberField("bookings_expired", p.bookingsExpired());
        g.writeNumberField("nodes_added", p.nodesAdded());
        g.writeNumberField("nodes_removed", p.nodesRemoved());
        writeHistogram(g, "latency_ms", p.latency());
        writeHistogram(g, "check_wait_ms", p.checkWait());
        g.writeEndObject();
      }
      if (!r.serving().isEmpty()) {
        g.writeArrayFieldStart("serving");
        for (var v : r.serving()) {
          g.writeStartObject();
          g.writeStringField("name", v.name());
          g.writeNumberField("scale_ups", v.scaleUps());
          g.writeNumberField("scale_ups_ran", v.scaleUpsRan());
          g.writeNumberField("delete_attempts", v.deleteAttempts());
          g.writeNumberField("delete_retries", v.deleteRetries());
          g.writeNumberField("newer_pod_groups_kept", v.newerPodGroupsKept());
          g.writeEndObject();
        }
        g.writeEndArray();
      }

      if (r.tas() != null) {
        g.writeObjectFieldStart("topology");
        writeHistogram(g, "tas_time_to_reservation_ms", r.tas().tasTimeToAdmission());
        writeHistogram(g, "non_tas_time_to_reservation_ms", r.tas().nonTasTimeToAdmission());
        g.writeNumberField("node_repairs", r.tas().nodeRepairs());
        g.writeNumberField("node_failure_evictions", r.tas().nodeFailureEvictions());
        g.writeEndObject();
      }

      ClustersJson.write(g, r);
      WaitingJson.write(g, r.waiting());
      g.writeStringField("digest", workloadsDigest);
      g.writeEndObject();
    }
    out.write('\n'); // POSIX text file: end with a newline
    out.flush();
  }

  /** Two-space indent, "\n" line ends and "key": value spacing regardless of platform defaults. */
  private static DefaultPrettyPrinter prettyPrinter() {
    DefaultIndenter indent = new DefaultIndenter("  ", "\n");
    Separators seps = Separators.createDefaultInstance()
        .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
        .withObjectEmptySeparator("")
        .withArrayEmptySeparator("");
    return new DefaultPrettyPrinter(seps).withObjectIndenter(indent).withArrayIndenter(indent);
  }

  static void writeCounts(JsonGenerator g, QueueStats q) throws IOException {
    g.writeNumberField("arrived", q.arrived());
    g.writeNumberField("admitted", q.admitted());
    g.writeNumberField("finished", q.finished());
    g.writeNumberField("evicted", q.evicted());
    g.writeNumberField("preempted", q.preempted());
    g.writeNumberField("pending_at_end", q.pendingAtEnd());
    g.writeNumberField("admitted_at_end", q.admittedAtEnd());
    g.writeNumberField("running_at_end", q.runningAtEnd());
  }

  static void writeQueue(JsonGenerator g, QueueStats q) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", q.name());
    writeCounts(g, q);
    writeHistogram(g, "time_to_reservation_ms", q.timeToReservation());
    writeHistogram(g, "time_to_start_ms", q.timeToStart());
    writeHistogram(g, "completion_ms", q.completion());
    g.writeEndObject();
  }

  /**
   * Evictions by reason, requeues, eviction-to-readmission latency and lost work. Lost work is in
   * resource-hours of display units: GPU-hours, core-hours, GiB-hours.
   */
  private static void writePreemption(JsonGenerator g, PreemptionStats p) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", p.name());
    g.writeObjectFieldStart("evictions_by_reason");
    for (var e : p.evictionsByReason().entrySet()) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    g.writeObjectFieldStart("preemptions_by_reason");
    for (var e : p.preemptionsByReason().entrySet()) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    g.writeNumberField("requeues", p.requeues());
    writeHistogram(g, "readmission_ms", p.readmission());
    g.writeObjectFieldStart("lost_resource_hours");
    for (var e : p.lostResourceMs().entrySet()) {
      decimalField(g, e.getKey(), Units.resourceHours(e.getKey(), e.getValue()), 6);
    }
    g.writeEndObject();
    // the warning: workload -> most preemptions within one simulated hour, when above the threshold
    g.writeObjectFieldStart("frequently_preempted");
    for (var e : p.frequentlyPreempted().entrySet()) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  /** Count, mean and HDR percentiles; the statistics are null when there are no samples. */
  private static void writeHistogram(JsonGenerator g, String field, Histogram h) throws IOException {
    long count = h == null ? 0 : h.getTotalCount();
    g.writeObjectFieldStart(field);
    g.writeNumberField("count", count);
    if (count == 0) {
      g.writeNullField("mean");
      for (String key : PERCENTILE_KEYS) {
        g.writeNullField(key);
      }
      g.writeNullField("max");
    } else {
      decimalField(g, "mean", h.getMean(), 3);
      for (int i = 0; i < PERCENTILES.length; i++) {
        g.writeNumberField(PERCENTILE_KEYS[i], h.getValueAtPercentile(PERCENTILES[i]));
      }
      g.writeNumberField("max", h.getMaxValue());
    }
    g.writeEndObject();
  }

  static void decimalField(JsonGenerator g, String field, double v, int scale)
      throws IOException {
    g.writeFieldName(field);
    BigDecimal d = Formats.round(v, scale);
    if (d == null) {
      g.writeNull();
    } else {
      g.writeNumber(d);
    }
  }
}
