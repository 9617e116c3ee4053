package batchsim.scenarios.cli;

import batchsim.core.metrics.WaitingStats;
import batchsim.core.model.Durations;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code batchsim explain OUTDIR --queue NAME}: one ClusterQueue's waiting split from summary.json's
 * {@code waiting} block — workload-time per cause and share — and who held each quota it waited on.
 */
final class QueueWaiting {
  private QueueWaiting() {}

  static void print(Path dir, String queue, PrintWriter out) throws ScenarioCommand.UserError, IOException {
    Path summary = dir.resolve("summary.json");
    if (!Files.isRegularFile(summary)) {
      throw new ScenarioCommand.UserError(dir + ": no summary.json here; is this a `batchsim run` output directory?");
    }
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(summary.toFile());
    } catch (IOException e) {
      throw new ScenarioCommand.UserError(summary + ": not readable JSON: " + e.getMessage());
    }
    JsonNode waiting = root.path("waiting");
    if (!waiting.isObject()) {
      throw new ScenarioCommand.UserError(summary + ": no waiting block (the split is computed for Kueue runs; "
          + "Volcano runs have none)");
    }
    JsonNode q = null;
    List<String> known = new ArrayList<>();
    for (JsonNode n : waiting.path("queues")) {
      known.add(n.path("cluster_queue").asText());
      if (n.path("cluster_queue").asText().equals(queue)) {
        q = n;
      }
    }
    if (q == null) {
      throw new ScenarioCommand.UserError("--queue: no ClusterQueue '" + queue + "' in " + summary + "; known: "
          + String.join(", ", known));
    }
    long total = q.path("total_ms").asLong();
    out.println("ClusterQueue " + queue + ": " + seconds(total) + " of workload-time waiting (until "
        + Durations.format(waiting.path("until_ms").asLong()) + ", the end of the run)");
    if (total == 0) {
      out.println("  (no workload waited)");
    }
    for (JsonNode c : q.path("causes")) {
      long ms = c.path("ms").asLong();
      out.println(String.format(Locale.ROOT, "  %-48s %12s  %5.1f%%", c.path("cause").asText(),
          seconds(ms), 100.0 * ms / total));
    }
    JsonNode blocks = q.path("quota_holders");
    if (blocks.size() > 0) {
      out.println();
      out.println("who held the quota meanwhile (mean over the time it waited)");
    }
    for (JsonNode b : blocks) {
      List<WaitingStats.Holder> holders = new ArrayList<>();
      for (JsonNode h : b.path("holders")) {
        holders.add(new WaitingStats.Holder(h.path("cluster_queue").asText(), h.path("mean_usage").asDouble(),
            h.path("mean_borrowed").asDouble()));
      }
      out.println("  " + new WaitingStats.QuotaBlock(b.path("resource").asText(), b.path("flavor").asText(),
          b.path("blocked_ms").asLong(), holders).describe(queue));
    }
  }

  /** A duration to the second (summary.json keeps the milliseconds). */
  private static String seconds(long ms) {
    return Durations.format(ms / 1000 * 1000);
  }
}
