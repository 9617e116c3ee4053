package batchsim.scenarios.expect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExpectationsTest {
  private final List<String> problems = new ArrayList<>();

  private Expectations parse(String yaml) {
    Node root = YamlTreeReader.read("e.yaml", yaml, (at, path, msg) -> problems.add(at + ": " + msg));
    Expectations e = Expectations.parse(root, (at, path, msg) -> problems.add(at + ": "
        + (path.isEmpty() ? "" : path + ": ") + msg));
    e.validate(List.of("team-a", "team-b"), List.of("cpu", "nvidia.com/gpu"), List.of("a100"),
        (at, path, msg) -> problems.add(at + ": " + msg));
    return e;
  }

  private List<String> lines(String yaml) {
    Expectations e = parse(yaml);
    assertEquals(List.of(), problems);
    return e.evaluate(new FakeResult(), true).stream().map(Outcome::line).toList();
  }

  @Test
  void metrics_haveOneCanonicalSpelling() throws Exception {
    assertEquals("p95(wait{queue=team-a})", Metric.parse(" p95( wait { queue = team-a } ) ").toString());
    assertEquals("mean(completion)", Metric.parse("mean(completion)").toString());
    assertEquals("utilization(nvidia.com/gpu, a100)", Metric.parse("utilization(nvidia.com/gpu,a100)").toString());
    assertEquals("count(preemptions)", Metric.parse("count(preemptions{queue=*})").toString());
  }

  @Test
  void malformedMetrics_sayWhereAndWhat() {
    ExpressionException e = assertThrows(ExpressionException.class, () -> Metric.parse("p95(wiat)"));
    assertEquals(4, e.offset());
    assertEquals("unknown series 'wiat' (expected wait, start, completion)", e.getMessage());
    e = assertThrows(ExpressionException.class, () -> Metric.parse("p42(wait)"));
    assertEquals("unknown function 'p42' (expected p50, p90, p95, p99, max, mean, utilization, count)",
        e.getMessage());
    e = assertThrows(ExpressionException.class, () -> Metric.parse("count(preemptions{team=b})"));
    assertEquals("unknown selector 'team' (expected queue=NAME)", e.getMessage());
    assertEquals(18, e.offset());
  }

  @Test
  void verdicts_sayWhatWasMeasuredAndByHowMuchItMissed() {
    assertEquals(List.of(
        "FAIL p95(wait{queue=team-a}) < 20m: measured 34m12s, expected < 20m (14m12s too high)",
        "PASS p95(wait{queue=team-a}) <= 1h: measured 34m12s",
        "FAIL p95(wait{queue=team-b}) < 20m: no value (no samples), expected < 20m",
        "FAIL utilization(nvidia.com/gpu) >= 0.8: measured 0.712, expected >= 0.8 (0.088 too low)",
        "PASS utilization(nvidia.com/gpu, a100) > 70%: measured 0.712",
        "FAIL count(preemptions{queue=team-b}) == 0: measured 3, expected == 0 (3 too high)",
        "PASS count(preemptions{queue=team-a}) == 0: measured 0",
        "FAIL count(preemptions) != 3: measured 3, expected != 3",
        "PASS invariants: clean: checked after every event, none violated"),
        lines("""
            expect:
              - p95(wait{queue=team-a}) < 20m
              - p95(wait{queue=team-a}) <= 1h
              - p95(wait{queue=team-b}) < 20m
              - utilization(nvidia.com/gpu) >= 0.8
              - utilization(nvidia.com/gpu, a100) > 70%
              - count(preemptions{queue=team-b}) == 0
              - count(preemptions{queue=team-a}) == 0
              - count(preemptions) != 3
              - invariants: clean
            """));
  }

  @Test
  void invariantsClean_failsWhenTheRunWasNotChecked() {
    Expectations e = parse("expect: [{invariants: clean}]\n");
    assertTrue(e.needsInvariantCheck());
    assertEquals("FAIL invariants: clean: the run was not made with the invariant checker (--check)",
        e.evaluate(new FakeResult(), false).get(0).line());
  }

  @Test
  void problems_pointIntoTheExpression() {
    parse("""
        expect:
          - p95(wiat) < 20m
          - p95(wait{queue=team-x}) < 20m
          - p95(wait) < 20
          - utilization(gpu) >= high
          - utilization(cpu, h100) >= 0.5
          - count(pending) = 0
          - count(pending)
          - invariants: dirty
          - 42
        """);
    assertEquals(List.of(
        "e.yaml:2:9: expect[0]: unknown series 'wiat' (expected wait, start, completion)",
        "e.yaml:3:20: unknown ClusterQueue 'team-x' (known: team-a, team-b)",
        "e.yaml:4:17: expect[2]: '20' is not a duration (use e.g. 500ms, 30s, 45m, 2h, 7d, 1h30m); p95(wait) is a "
            + "duration",
        "e.yaml:5:25: expect[3]: expected a number such as 0.8 or 80%, got 'high'",
        "e.yaml:6:22: unknown ResourceFlavor 'h100' (known: a100)",
        "e.yaml:7:20: expect[5]: use '==' to compare for equality",
        "e.yaml:8:19: expect[6]: missing a comparison (< <= > >= == !=) and a value",
        "e.yaml:9:17: expect[7].invariants: the only value of 'invariants' is clean, got 'dirty'",
        "e.yaml:10:7: expect[8]: expected '(' after '42'").stream().sorted().toList(), problems.stream().sorted().toList());
  }

  @Test
  void afterAViolation_invariantsFailAndTheRestIsSkipped() {
    Expectations e = parse("expect: [p95(wait) < 1h, {invariants: clean}]\n");
    assertEquals(List.of("SKIP p95(wait) < 1h: not evaluated: the run stopped at an invariant violation",
        "FAIL invariants: clean: quota exceeded"),
        e.afterViolation("quota exceeded").stream().map(Outcome::line).toList());
  }
}
