package batchsim.scenarios.expect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineTest {
  /** A stored summary, shaped as summary.json: team-a waited p95 20m, 1 preemption overall, 80% GPUs. */
  static final String SUMMARY = """
      {"scenario": {"name": "fake"}, "seed": 1, "end_time_ms": 3600000,
       "queues": [
         {"name": "team-a", "preempted": 0, "finished": 10,
          "time_to_reservation_ms": {"count": 10, "mean": 1.0, "p50": 60000, "p90": 1, "p95": 1200000, "p99": 1, "max": 1}},
         {"name": "team-b", "preempted": 1, "finished": 10,
          "time_to_reservation_ms": {"count": 0, "mean": null, "p50": null, "p90": null, "p95": null, "p99": null, "max": null}}],
       "overall": {"name": "*", "preempted": 1, "finished": 10,
          "time_to_reservation_ms": {"count": 10, "mean": 1.0, "p50": 60000, "p90": 1, "p95": 1200000, "p99": 1, "max": 1}},
       "utilization": [
         {"flavor": "*", "resource": "nvidia.com/gpu", "mean_allocated": 25.6, "mean_capacity": 32, "utilization": 0.8},
         {"flavor": "*", "resource": "pods", "mean_allocated": 0, "mean_capacity": 0, "utilization": null}]}
      """;

  @TempDir
  Path tmp;

  private final List<String> problems = new ArrayList<>();

  private List<String> verdicts(String baselineYaml) throws Exception {
    Files.writeString(tmp.resolve("summary.json"), SUMMARY);
    Path scenario = tmp.resolve("s.yaml");
    Node root = YamlTreeReader.read(scenario.toString(), baselineYaml, (at, p, m) -> problems.add(m));
    Expectations e = Expectations.parse(root, (at, p, m) -> problems.add(at.line() + ":" + at.column() + ": "
        + (p.isEmpty() ? "" : p + ": ") + m));
    return e.evaluate(new FakeResult(), true).stream().map(Outcome::line).toList();
  }

  @Test
  void eachToleranceChecksEveryQueueAndOverall_pathRelativeToTheScenario() throws Exception {
    List<String> v = verdicts("""
        baseline:
          path: summary.json
          tolerance: {wait_p95: 50%, utilization: 0.05, preemptions: 1}
        """);
    assertEquals(List.of(), problems);
    assertEquals(List.of(
        "FAIL baseline: p95(wait{queue=team-a}) within 50%: measured 34m12s, baseline 20m00s (+71.0%), worse than "
            + "the tolerance 50% (10m00s) by 4m12s",
        "FAIL baseline: p95(wait) within 50%: measured 34m12s, baseline 20m00s (+71.0%), worse than the tolerance "
            + "50% (10m00s) by 4m12s",
        "FAIL baseline: utilization(nvidia.com/gpu) within 0.05: measured 0.712, baseline 0.800 (-11.0%), worse than "
            + "the tolerance 0.05 by 0.038",
        "PASS baseline: count(preemptions{queue=team-a}) within 1: measured 0, baseline 0 (0.0%)",
        "FAIL baseline: count(preemptions{queue=team-b}) within 1: measured 3, baseline 1 (+200.0%), worse than the "
            + "tolerance 1 by 1",
        "FAIL baseline: count(preemptions) within 1: measured 3, baseline 1 (+200.0%), worse than the tolerance 1 by 1"),
        v, "team-b has no wait samples in the baseline, so it is not compared; pods had no capacity");
  }

  @Test
  void generousTolerances_pass() throws Exception {
    List<String> v = verdicts("baseline: {path: ., tolerance: {wait_p95: 15m, finished: 10%}}\n");
    assertEquals(List.of(), problems);
    assertEquals(5, v.size());
    assertEquals(List.of(), v.stream().filter(l -> !l.startsWith("PASS")).toList());
  }

  @Test
  void problems_areLocated() throws Exception {
    verdicts("""
        baseline:
          path: nowhere/summary.json
          tolerance: {wait_p96: 10%, utilization: lots, wait_p95: 5, preemptions: -1}
          margin: 1
        """);
    assertEquals(List.of(
        "2:9: baseline.path: cannot read the baseline: " + tmp.resolve("nowhere/summary.json") + ": no such file",
        "3:15: baseline.tolerance.wait_p96: unknown tolerance 'wait_p96' (expected one of wait_p50, wait_p90, "
            + "wait_p95, wait_p99, wait_max, wait_mean, start_p50, start_p90, start_p95, start_p99, start_max, "
            + "start_mean, completion_p50, completion_p90, completion_p95, completion_p99, completion_max, "
            + "completion_mean, utilization, admitted, finished, pending, evictions, preemptions)",
        "3:43: baseline.tolerance.utilization: expected a tolerance: a percentage of the baseline such as 10%, or a "
            + "non-negative number, got 'lots'",
        "3:59: baseline.tolerance.wait_p95: expected a tolerance: a percentage of the baseline such as 10%, or a "
            + "duration such as 5m, got '5'",
        "3:75: baseline.tolerance.preemptions: expected a tolerance: a percentage of the baseline such as 10%, or a "
            + "non-negative number, got '-1'",
        "4:3: baseline.margin: unknown key 'margin' (expected one of path, tolerance)").stream().sorted().toList(),
        problems.stream().sorted().toList());
  }
}
