package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kueue's metrics at a time: {@code at(T, kueue_...{labels})} expectations and the samples in status.jsonl. */
class MetricsAtTest {
  private static final String METRICS = "src/test/resources/status/reclaim-metrics.yaml";

  @TempDir
  Path tmp;

  @Test
  void metricsAtTimes_holdAcrossPreemptionAndRequeue() {
    Cli.Result r = Cli.run("check", METRICS);
    assertEquals(0, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("PASS at(41m, kueue_preempted_workloads_total{preempting_cluster_queue=\"team-a\","
        + "reason=\"InCohortReclamation\"}) == 1: measured 1 at 41m (sampled at 41m, 1 series)"), r.out());
    assertFalse(r.out().contains("FAIL"), r.out());
  }

  @Test
  void aWrongValue_failsWithWhatWasMeasured() {
    Cli.Result r = Cli.run("check", METRICS, "--set", "horizon=30m");
    assertEquals(1, r.exit(), r.out() + r.err());
    // a series that does not exist (yet) reads 0, as Kueue's test helpers read it
    assertTrue(r.out().contains("FAIL at(41m, kueue_admitted_workloads_total{cluster_queue=\"team-a\"}) == 1: measured 0"
        + " at 41m (sampled at 30m, no such series: it reads 0), expected == 1"), r.out());
  }

  @Test
  void unknownMetricsLabelsAndValues_areLocatedErrors() {
    Cli.Result bad = Cli.run("run", "src/test/resources/status/bad-metrics.yaml", "--out", tmp.resolve("o").toString());
    assertEquals(2, bad.exit());
    List<String> lines = bad.errLines();
    assertEquals(4, lines.size(), bad.err());
    assertTrue(lines.get(0).startsWith("src/test/resources/status/bad-metrics.yaml:4:12: expect[0]: unknown Kueue metric "
        + "'kueue_pending_workload' (known: "), lines.get(0));
    assertEquals("src/test/resources/status/bad-metrics.yaml:5:36: expect[1]: metric kueue_pending_workloads has no label "
        + "'clusterqueue' (labels: cluster_queue, status, replica_role)", lines.get(1));
    assertTrue(lines.get(2).startsWith("src/test/resources/status/bad-metrics.yaml:6:12: expect[2]: unknown Kueue metric "
        + "'kueue_admission_wait_time_seconds' (a histogram: name its _count, _sum or _bucket{le=\"..\"})"),
        lines.get(2));
    assertEquals("src/test/resources/status/bad-metrics.yaml:7:47: expect[3]: a metric compares with a number, not 'many'",
        lines.get(3));
    assertFalse(Files.exists(tmp.resolve("o")));
  }

  @Test
  void theStatusRecord_carriesTheMetricSamples() throws Exception {
    Cli.Result r = Cli.run("run", METRICS, "--record", "status", "--out", tmp.resolve("out").toString(), "--quiet");
    assertEquals(0, r.exit(), r.err());
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> metrics = new ArrayList<>();
    long last = -1;
    for (String line : Files.readAllLines(tmp.resolve("out/status.jsonl"))) {
      JsonNode n = json.readTree(line);
      assertTrue(n.get("time").asLong() >= last, "time order");
      last = n.get("time").asLong();
      if (n.get("kind").asText().equals("Metrics")) {
        metrics.add(n);
      }
    }
    assertTrue(metrics.size() > 7 * 60, "one sample a minute from 0 while the run has anything to do");
    JsonNode at41 = metrics.get(41);
    assertEquals(41 * 60_000, at41.get("time").asLong());
    assertEquals(1.0, at41.get("status").get("kueue_preempted_workloads_total{preempting_cluster_queue=\"team-a\","
        + "reason=\"InCohortReclamation\",replica_role=\"standalone\"}").asDouble());
    assertEquals("+Inf", at41.get("status").get("kueue_cluster_queue_borrowing_limit{cluster_queue=\"team-a\",cohort=\"pool\","
        + "flavor=\"a100\",replica_role=\"standalone\",resource=\"nvidia.com/gpu\"}").asText(), "no limit");
  }
}
