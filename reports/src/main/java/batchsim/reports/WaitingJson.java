package batchsim.reports;

import batchsim.core.metrics.WaitingStats;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * summary.json's {@code waiting} block: per ClusterQueue and overall, the workload-time spent waiting split by
 * cause (README, "Why it waited"), over time in buckets, and who held each quota a queue waited on. Absent
 * when the run has no split (Volcano).
 */
final class WaitingJson {
  private WaitingJson() {}

  static void write(JsonGenerator g, WaitingStats w) throws IOException {
    if (w == null) {
      return;
    }
    g.writeObjectFieldStart("waiting");
    g.writeNumberField("until_ms", w.untilMs());
    g.writeNumberField("bucket_ms", w.bucketMs());
    g.writeArrayFieldStart("queues");
    for (WaitingStats.Queue q : w.queues()) {
      queue(g, q);
    }
    g.writeEndArray();
    g.writeFieldName("overall");
    queue(g, w.overall());
    g.writeEndObject();
  }

  private static void queue(JsonGenerator g, WaitingStats.Queue q) throws IOException {
    g.writeStartObject();
    g.writeStringField("cluster_queue", q.clusterQueue());
    g.writeNumberField("total_ms", q.totalMs());
    g.writeArrayFieldStart("causes");
    for (WaitingStats.Cause c : q.causes()) {
      g.writeStartObject();
      g.writeStringField("cause", c.cause());
      g.writeNumberField("ms", c.ms());
      decimal(g, "share", q.totalMs() == 0 ? 0 : (double) c.ms() / q.totalMs());
      g.writeArrayFieldStart("by_bucket_ms");
      for (long b : c.byBucket()) {
        g.writeNumber(b);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    if (!q.quotaBlocks().isEmpty()) {
      g.writeArrayFieldStart("quota_holders");
      for (WaitingStats.QuotaBlock b : q.quotaBlocks()) {
        g.writeStartObject();
        g.writeStringField("resource", b.resource());
        g.writeStringField("flavor", b.flavor());
        g.writeNumberField("blocked_ms", b.blockedMs());
        g.writeArrayFieldStart("holders");
        for (WaitingStats.Holder h : b.holders()) {
          g.writeStartObject();
          g.writeStringField("cluster_queue", h.clusterQueue());
          decimal(g, "mean_usage", h.meanUsage());
          decimal(g, "mean_borrowed", h.meanBorrowed());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }

  private static void decimal(JsonGenerator g, String field, double v) throws IOException {
    g.writeFieldName(field);
    g.writeNumber(Formats.round(v, 6));
  }
}
