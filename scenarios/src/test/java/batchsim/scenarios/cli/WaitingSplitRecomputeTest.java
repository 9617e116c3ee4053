package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * summary.json's waiting split agrees to the millisecond with a recount from the same run's decisions.csv and
 * workloads.csv (what a checker outside the tool does): per workload, the time between its condition changes,
 * each interval classified from the conditions it had, following README's "Why it waited".
 */
class WaitingSplitRecomputeTest {
  @TempDir
  Path tmp;

  private String cli(int expected, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = new CommandLine(new BatchsimCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
        .execute(args);
    assertEquals(expected, code, err.toString());
    return out + err.toString();
  }

  @ParameterizedTest
  @ValueSource(strings = {"quickstart", "hierarchical-cohorts", "reclaim", "reclaim-fair-sharing",
      "tas/fragmentation-4-racks", "tas/node-failure", "autoscaled-gpus", "cluster-changes", "node-failures",
      "live-cluster", "regressions/preemption-while-queue-deleted", "regressions/two-phase-tas-provisioning-gap",
      "kueue-vs-volcano", "ci-gate", "kueue-perf-baseline", "traces/alibaba-openb",
      "../src/test/resources/waiting/deleted"})
  void split_equalsARecountFromTheDecisionLog(String example) throws IOException {
    assumeTrue(!example.startsWith("traces/") || Files.isDirectory(Path.of("..", "..", "shared", "traces")),
        "the trace examples read ../shared/traces, which is not beside the project here");
    Path dir = tmp.resolve(example.replace('/', '_').replace("..", ""));
    cli(0, "run", "examples/" + example + ".yaml", "--explain", "--quiet", "--out", dir.toString());
    JsonNode waiting = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).path("waiting");
    assertTrue(waiting.isObject(), "summary.json has a waiting block");
    Map<String, Map<String, Long>> recount = recount(dir, waiting.path("until_ms").asLong());
    Map<String, Map<String, Long>> reported = new TreeMap<>();
    long overall = 0;
    for (JsonNode q : waiting.path("queues")) {
      Map<String, Long> causes = new TreeMap<>();
      long total = 0;
      for (JsonNode c : q.path("causes")) {
        causes.put(c.path("cause").asText(), c.path("ms").asLong());
        total += c.path("ms").asLong();
        long buckets = 0;
        for (JsonNode b : c.path("by_bucket_ms")) {
          buckets += b.asLong();
        }
        assertEquals(c.path("ms").asLong(), buckets, "buckets of " + c.path("cause").asText() + " add up");
      }
      assertEquals(total, q.path("total_ms").asLong());
      overall += total;
      if (!causes.isEmpty()) {
        reported.put(q.path("cluster_queue").asText(), causes);
      }
    }
    assertEquals(recount, reported);
    assertEquals(overall, waiting.path("overall").path("total_ms").asLong());
    assertTrue(overall > 0, "some workload waited in " + example);
  }

  /**
   * A deactivated workload deleted (its wait ends then), and workloads moved between ClusterQueues twice in one
   * instant and while deactivated (they wait in the new queue from then on, whether or not a condition
   * changes): the checker recounts the waiting workloads per queue and cause after every event.
   */
  @ParameterizedTest
  @ValueSource(strings = {"deleted", "moved"})
  void deletedAndMovedWorkloads_keepTheCountsTrue_underTheChecker(String scenario) {
    cli(0, "check", "src/test/resources/waiting/" + scenario + ".yaml", "--quiet");
  }

  @Test
  void explainQueue_printsTheSplitAndWhoHeldTheQuota_andRejectsAnUnknownQueue() {
    Path dir = tmp.resolve("reclaim");
    cli(0, "run", "examples/reclaim.yaml", "--quiet", "--out", dir.toString());
    String out = cli(0, "explain", dir.toString(), "--queue", "research-b");
    assertTrue(out.contains("quota: nvidia.com/gpu in a100"), out);
    assertTrue(out.contains("while research-b waited on nvidia.com/gpu in a100 ("), out);
    assertTrue(out.contains("research-a used "), out);
    String bad = cli(2, "explain", dir.toString(), "--queue", "nope");
    assertTrue(bad.contains("no ClusterQueue 'nope'") && bad.contains("known: prod, research-a, research-b"), bad);
    cli(2, "explain", dir.toString());
  }

  /** Per queue and cause label, the waiting milliseconds worked out from the two CSV files alone. */
  private static Map<String, Map<String, Long>> recount(Path dir, long until) throws IOException {
    Map<String, List<List<String>>> rows = new HashMap<>();
    for (List<String> d : csv(dir.resolve("decisions.csv"))) {
      rows.computeIfAbsent(d.get(0), k -> new ArrayList<>()).add(d);
    }
    Map<String, Map<String, Long>> out = new TreeMap<>();
    for (List<String> w : csv(dir.resolve("workloads.csv"))) {
      String queue = w.get(3);
      if (queue.isEmpty()) {
        continue; // never queued (unknown LocalQueue)
      }
      Map<String, Long> causes = out.computeIfAbsent(queue, k -> new TreeMap<>());
      long end = w.get(14).equals("DELETED") ? Long.parseLong(w.get(10)) : until;
      boolean waiting = true;
      String reserved = null; // null: no QuotaReserved yet; "True"; or the False cause's label
      boolean admitted = false;
      boolean evicted = false;
      long at = Math.max(0, Long.parseLong(w.get(5)));
      boolean ended = false;
      for (List<String> d : rows.getOrDefault(w.get(0), List.of())) {
        long t = Math.max(at, Long.parseLong(d.get(1)));
        String cause = cause(waiting, reserved, admitted, evicted);
        if (cause != null) {
          causes.merge(cause, t - at, Long::sum);
        }
        at = t;
        boolean status = d.get(3).equals("True");
        switch (d.get(2)) {
          case "QuotaReserved" -> {
            reserved = status ? "True" : label(d.get(4), d.get(5));
            waiting |= !status;
          }
          case "Admitted" -> admitted = status;
          case "Evicted" -> evicted = status;
          case "PodsReady" -> waiting &= !status;
          case "Finished" -> ended |= status;
          default -> { }
        }
        if (ended) {
          break;
        }
      }
      String cause = ended ? null : cause(waiting, reserved, admitted, evicted);
      if (cause != null) {
        causes.merge(cause, Math.max(at, end) - at, Long::sum);
      }
    }
    out.values().forEach(m -> m.values().removeIf(v -> v == 0));
    out.values().removeIf(Map::isEmpty);
    return out;
  }

  private static final Pattern UNUSED = Pattern.compile("insufficient unused quota for (\\S+) in flavor ([^,.; ]+)");
  private static final Pattern NEVER = Pattern.compile("insufficient quota for \\S+ in flavor ([^,.; ]+)");

  /** README's table of causes, read from the reason and message with its own patterns (not the tool's code). */
  private static String label(String reason, String message) {
    switch (reason) {
      case "WaitingForPreemptedWorkloads": return "waiting for preempted workloads";
      case "TopologyPlacementFailed": return "topology";
      case "NoMatchingFlavor": return "no matching flavor";
      case "Suspended", "Misconfigured": return "stopped or inactive queue";
      case "Deactivated": return "deactivated";
      case "PendingEvaluation":
        return message.startsWith("Workload is pending evaluation") ? "pending evaluation" : "evicted, waiting to requeue";
      case "WaitingForQuota", "Pending": break;
      default: return "other: " + reason;
    }
    java.util.Set<String> never = new java.util.HashSet<>();
    for (Matcher m = NEVER.matcher(message); m.find(); ) {
      never.add(m.group(1));
    }
    for (Matcher m = UNUSED.matcher(message); m.find(); ) {
      if (!never.contains(m.group(2))) {
        return "quota: " + m.group(1) + " in " + m.group(2);
      }
    }
    if (message.matches("(?s).*topology \".*(allows to fit only|allow to fit).*")) {
      return "topology";
    }
    if (message.startsWith("Workload no longer fits after processing another workload")) {
      return "no longer fits after another workload";
    }
    if (message.startsWith("Workload has overlapping preemption targets")) {
      return "overlapping preemption targets";
    }
    return message.contains("> maximum capacity") ? "never fits the quota" : "other: " + reason;
  }

  private static String cause(boolean waiting, String reserved, boolean admitted, boolean evicted) {
    if (!waiting) {
      return null;
    }
    if (reserved == null) {
      return "not yet tried";
    }
    if (!reserved.equals("True")) {
      return reserved;
    }
    return evicted ? "evicted, waiting to requeue" : admitted ? "pods starting" : "admission checks";
  }

  private static List<List<String>> csv(Path file) throws IOException {
    List<List<String>> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      r.readLine();
      String line;
      while ((line = r.readLine()) != null) {
        out.add(ExplainCommand.Csv.parse(line));
      }
    }
    return out;
  }
}
