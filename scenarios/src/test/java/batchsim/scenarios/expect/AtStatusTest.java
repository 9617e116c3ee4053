package batchsim.scenarios.expect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.core.world.StatusRecord;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code at(TIME, OBJECT.FIELD) OP VALUE}: located problems at load, verdicts from a streamed status record. */
class AtStatusTest {
  private final List<String> problems = new ArrayList<>();

  private Expectations parse(String yaml) {
    Node root = YamlTreeReader.read("e.yaml", yaml, (at, path, msg) -> problems.add(at + ": " + msg));
    Expectations e = Expectations.parse(root, (at, path, msg) -> problems.add(at + ": "
        + (path.isEmpty() ? "" : path + ": ") + msg));
    e.validateStatusPaths(List.of("cq-a"), List.of("team-a/main", "plain"), List.of("pool"),
        List.of("cpu", "nvidia.com/gpu"), List.of("a100"), (at, path, msg) -> problems.add(at + ": " + msg));
    return e;
  }

  @Test
  void badPaths_areLocatedErrorsAtLoad() {
    parse("""
        expect:
          - at(5m, workload(team-a/wl1).conditions[Admited].status) == True
          - at(5m, workload(wl1).conditon[Admitted].status) == True
          - at(1h, clusterQueue(cq-x).pendingWorkloads) == 2
          - at(1h, clusterQueue(cq-a).pendingWorkload) == 2
          - at(1h, clusterQueue(cq-a).flavorsUsage[h100].resources[cpu].total) == 2
          - at(1h, clusterQueue(cq-a).flavorsUsage[a100].resources[gpu].total) == 2
          - at(1h, clusterQueue(cq-a).conditions[Admitted].status) == True
          - at(1h, localQueue(team-b/main).pendingWorkloads) == 0
          - at(1h, cohort(pool).fairSharing) == 0
          - at(1h, workload(wl1).conditions.status) == True
          - at(soon, workload(wl1).conditions[Admitted].status) == True
          - at(1h, pod(wl1).status) == Running
          - at(1h, kueue_pending_workloads{clusterqueue="cq-a"}) == 3
          - at(1h, clusterQueue(cq-a).pendingWorkloads) > many
          - at(1h, workload(wl1)) == 1
        """);
    assertEquals(List.of(
        "e.yaml:2:44: unknown condition type 'Admited' in 'conditions' (known: QuotaReserved, Admitted, PodsReady, "
            + "Evicted, Preempted, Requeued, Finished)",
        "e.yaml:3:26: unknown field 'conditon' of Workload status (known: conditions, admission, admissionChecks, "
            + "requeueState, accumulatedPastExecutionTimeSeconds, clusterName, nominatedClusterNames, spec)",
        "e.yaml:4:25: unknown ClusterQueue 'cq-x' (known: cq-a)",
        "e.yaml:5:31: unknown field 'pendingWorkload' of ClusterQueue status (known: conditions, flavorsReservation, "
            + "flavorsUsage, pendingWorkloads, reservingWorkloads, admittedWorkloads, fairSharing)",
        "e.yaml:6:44: unknown flavor 'h100' in 'flavorsUsage' (known: a100)",
        "e.yaml:7:60: unknown resource 'gpu' in 'resources' (known: cpu, nvidia.com/gpu)",
        "e.yaml:8:42: unknown condition type 'Admitted' in 'conditions' (known: Active)",
        "e.yaml:9:23: unknown LocalQueue 'team-b/main' (known: team-a/main, plain)",
        "e.yaml:10:25: 'fairSharing' is an object: name one of its fields (weightedShare)",
        "e.yaml:11:37: 'conditions' is a list: pick an item with [condition type]",
        "e.yaml:12:8: expect[10]: 'soon' is not a duration (use e.g. 500ms, 30s, 45m, 2h, 7d, 1h30m); at( takes a "
            + "virtual time such as 5m or 1h30m",
        "e.yaml:13:12: expect[11]: unknown object 'pod' (expected workload, clusterQueue, localQueue, cohort)",
        "e.yaml:14:36: expect[12]: metric kueue_pending_workloads has no label 'clusterqueue' (labels: "
            + "cluster_queue, status, replica_role)",
        "e.yaml:15:51: expect[13]: '>' compares numbers; 'many' is not one (use == or != for text)",
        "e.yaml:16:25: expect[14]: expected a status field after workload(wl1), e.g. .conditions[Admitted].status")
        .stream().sorted().toList(), problems.stream().sorted().toList());
  }

  private static StatusRecord workload(long t, Map<String, Object> status) {
    return new StatusRecord(t, "Workload", "team-a", "wl1", Map.of("active", true), status);
  }

  private static Map<String, Object> admitted(String status, String reason) {
    return Map.of("conditions", List.of(Map.of("type", "Admitted", "status", status, "reason", reason)),
        "admission", Map.of("podSetAssignments", List.of(Map.of("name", "main", "count", 4,
            "resourceUsage", Map.of("cpu", "1500m")))));
  }

  @Test
  void verdicts_readTheLastRecordAtOrBeforeTheTime_andSayWhatIsMissing() {
    Expectations e = parse("""
        expect:
          - at(5m, workload(team-a/wl1).conditions[Admitted].status) == True
          - at(5m, workload(team-a/wl1).conditions[Admitted].reason) == "Admitted"
          - at(10m, workload(team-a/wl1).conditions[Admitted].status) == True
          - at(1m, workload(team-a/wl1).conditions[Admitted].status) == True
          - at(5m, workload(team-a/wl1).conditions[Evicted].status) == False
          - at(5m, workload(team-a/wl1).admission.podSetAssignments[main].count) >= 4
          - at(5m, workload(team-a/wl1).admission.podSetAssignments[main].resourceUsage[cpu]) == 1.5
          - at(5m, workload(team-a/wl1).spec.active) == true
          - at(5m, workload(team-a/other).spec.active) == true
          - at(5m, clusterQueue(cq-a).pendingWorkloads) == 2
        """);
    assertEquals(List.of(), problems);
    StatusWatch watch = e.newStatusWatch();
    watch.accept(workload(120_000, admitted("True", "Admitted")));
    watch.accept(new StatusRecord(180_000, "ClusterQueue", null, "cq-a", null, Map.of("pendingWorkloads", 2)));
    watch.accept(workload(300_000, admitted("True", "Admitted")));
    watch.accept(workload(300_001, admitted("False", "NoReservation")));
    List<String> lines = e.evaluate(new FakeResult(), false, watch).stream().map(Outcome::line).toList();
    assertEquals(List.of(
        "PASS at(5m, workload(team-a/wl1).conditions[Admitted].status) == True: measured \"True\" at 5m (recorded "
            + "at 5m)",
        "PASS at(5m, workload(team-a/wl1).conditions[Admitted].reason) == \"Admitted\": measured \"Admitted\" at 5m "
            + "(recorded at 5m)",
        "FAIL at(10m, workload(team-a/wl1).conditions[Admitted].status) == True: measured \"False\" at 10m "
            + "(recorded at 5m1ms), expected == \"True\"",
        "FAIL at(1m, workload(team-a/wl1).conditions[Admitted].status) == True: Workload team-a/wl1 was not "
            + "recorded yet at 1m (first recorded at 2m)",
        "FAIL at(5m, workload(team-a/wl1).conditions[Evicted].status) == False: at 5m, Workload team-a/wl1 has no "
            + "[Evicted] in conditions (last recorded at 5m)",
        "PASS at(5m, workload(team-a/wl1).admission.podSetAssignments[main].count) >= 4: measured 4 at 5m "
            + "(recorded at 5m)",
        "PASS at(5m, workload(team-a/wl1).admission.podSetAssignments[main].resourceUsage[cpu]) == 1.5: measured "
            + "1500m at 5m (recorded at 5m)",
        "PASS at(5m, workload(team-a/wl1).spec.active) == true: measured true at 5m (recorded at 5m)",
        "FAIL at(5m, workload(team-a/other).spec.active) == true: Workload team-a/other was never recorded",
        "PASS at(5m, clusterQueue(cq-a).pendingWorkloads) == 2: measured 2 at 5m (recorded at 3m)"), lines);
  }

  @Test
  void aListOfNames_isKeyedByTheName() {
    Expectations e = parse("""
        expect:
          - at(1m, workload(team-a/wl1).nominatedClusterNames[worker2]) == worker2
          - at(1m, workload(team-a/wl1).nominatedClusterNames[worker3]) == worker3
        """);
    assertEquals(List.of(), problems);
    StatusWatch watch = e.newStatusWatch();
    watch.accept(workload(60_000, Map.of("nominatedClusterNames", List.of("worker1", "worker2"))));
    assertEquals(List.of("PASS", "FAIL"), e.evaluate(new FakeResult(), false, watch).stream()
        .map(o -> o.status().name()).toList());
  }

  @Test
  void withoutAStatusRecord_atExpectationsAreSkipped() {
    Expectations e = parse("""
        expect:
          - at(5m, clusterQueue(cq-a).pendingWorkloads) == 2
        """);
    assertEquals("SKIP", e.evaluate(new FakeResult(), false).get(0).status().name());
  }
}
